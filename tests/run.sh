#!/usr/bin/env bash
# Runs postal's tests on a fresh machine: installs what the tests use where
# it is missing, then runs `cargo test`. Once these tools are there,
# `cargo test` alone is the command a developer runs; a test whose tool is
# missing fails saying what to install. Arguments go to `cargo test`
# (`bash tests/run.sh --test suite referee::`).
#
# What the tests use, and who uses it:
# - Debian's chromium: the replay pages in a headless browser (render tests);
# - zsh and fish: the completion scripts parse (cli tests);
# - man-db: the man pages render without warnings (.ci/run);
# - dovecot-imapd: a real IMAP server, started unprivileged per test on
#   127.0.0.1 (imap tests, tests/common/dovecot.rs);
# - Python's aiosmtpd: the SMTP server the mail tests start on 127.0.0.1;
# - python-chess and pyffish: postal's PGN read by other programs, and
#   Fairy-Stockfish's engine for the agreement tests;
# - trf (PyPI, 1.1.1): a reader of FIDE's TRF-16, for the tournaments'
#   report file read back by another program;
# - Fairy-Stockfish's own variants.ini, from Debian's source package
#   (GPL-3, so kept under target/, never in the repository).
# Installing needs root (apt-get) and the package registries; a tool
# already present is not installed again.
set -euo pipefail
cd "$(dirname "$0")/.."

debian_missing=()
command -v chromium >/dev/null 2>&1 || debian_missing+=(chromium)
command -v zsh >/dev/null 2>&1 || debian_missing+=(zsh)
command -v fish >/dev/null 2>&1 || debian_missing+=(fish)
command -v man >/dev/null 2>&1 || debian_missing+=(man-db)
[ -x /usr/sbin/dovecot ] || debian_missing+=(dovecot-imapd)
if [ ${#debian_missing[@]} -gt 0 ]; then
    echo "installing ${debian_missing[*]} (Debian)"
    export DEBIAN_FRONTEND=noninteractive
    # A policy-rc.d that says no keeps apt from starting the system's
    # Dovecot on ports 143 and 993; removed again when put here.
    policy_added=no
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
        chmod +x /usr/sbin/policy-rc.d
        policy_added=yes
    fi
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${debian_missing[@]}" >/dev/null
    if [ "$policy_added" = yes ]; then rm -f /usr/sbin/policy-rc.d; fi
fi

if ! python3 -c 'import aiosmtpd, chess, pyffish, trf' >/dev/null 2>&1; then
    echo "installing aiosmtpd, chess, pyffish and trf (PyPI)"
    python3 -m pip install --quiet --disable-pip-version-check aiosmtpd chess pyffish trf==1.1.1
fi

# Fairy-Stockfish 11.1's variants.ini (225,225 bytes), checked by its
# sha256; tests/common/mod.rs finds it here. A tarball already there with
# the right sum is not fetched again.
fs_dir=target/fairy-stockfish
fs_tar=$fs_dir/fairy-stockfish_11.1.orig.tar.gz
fs_url=http://deb.debian.org/debian/pool/main/f/fairy-stockfish/fairy-stockfish_11.1.orig.tar.gz
fs_sha256=4d56838e57eda4dd3654eb458a0a773d23a35ec15b43245f11b0b04cc94cefa2
mkdir -p "$fs_dir"
if [ "$(sha256sum "$fs_tar" 2>/dev/null | cut -d' ' -f1)" != "$fs_sha256" ]; then
    echo "fetching Fairy-Stockfish's variants.ini (Debian's source package)"
    curl -fsSL --retry 3 -o "$fs_tar.part" "$fs_url"
    got=$(sha256sum "$fs_tar.part" | cut -d' ' -f1)
    if [ "$got" != "$fs_sha256" ]; then
        echo "$fs_url: sha256 $got, expected $fs_sha256: not used" >&2
        rm -f "$fs_tar.part"
        exit 1
    fi
    mv "$fs_tar.part" "$fs_tar"
fi
if [ ! -f "$fs_dir/variants.ini" ]; then
    tar -xzf "$fs_tar" -C "$fs_dir" --strip-components=2 \
        Fairy-Stockfish-fairy_sf_11_1/src/variants.ini
fi

cargo test --locked "$@"
