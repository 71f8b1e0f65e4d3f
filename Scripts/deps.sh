# Sourced by Scripts/test, Scripts/oceq, the benchmarks and .ci/run: the Debian packages oceq builds and
# tests with, and the one release build they all run.
# shellcheck shell=bash
OCEQ_APT_PACKAGES=(
    pkg-config
    libmicrohttpd-dev libsqlite3-dev libarchive-dev libcurl4-openssl-dev libedit-dev libvips-dev
    libxml2-dev libchafa-dev libicu-dev
    libstdc++-12-dev  # the static C++ runtime the oceq executable links (Linker/static-libstdc++)
    curl sqlite3
)
# Tests only: the GraphQL explorer test loads its page in headless Chromium (it skips without it).
OCEQ_TEST_PACKAGES=(chromium gdb)
# Benchmarks only (Scripts/bench-*): the baselines they run beside oceq.
OCEQ_BENCH_PACKAGES=(nginx-light wrk)

# Installs whichever of the named packages are missing (apt-get update only when needed).
oceq_install_missing() {
    local missing=()
    local p
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# Builds PRODUCT (default oceq) as every release of it is built (Scripts/oceq, the benchmarks; README
# "Start-up"): the Swift runtime and FoundationEssentials linked statically, and without the `$ORIGIN`
# run path SwiftPM adds by default. With the runtime static, the executable needs no library beside
# it, and that run path sent the dynamic loader to look for libcurl in a dozen folders under .build
# before the system's (and would load a libcurl.so.4 that anyone put beside the executable).
oceq_build_release() {
    swift build -c release --static-swift-stdlib --disable-local-rpath --product "${1:-oceq}" >&2
}
