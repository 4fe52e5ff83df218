fn main() {
    let a: Vec<String> = std::env::args().collect();
    let v = postal::Variant::from_name(&a[1]).unwrap();
    let p = postal::Position::from_text(v, &a[2]).unwrap();
    let d: u32 = a[3].parse().unwrap();
    for (m, n) in postal::perft::divide(&p, d) {
        println!("{m}: {n}");
    }
}
