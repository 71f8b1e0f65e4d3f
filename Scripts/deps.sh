# Sourced by Scripts/test, Scripts/oceq and .ci/run: the Debian packages oceq builds and tests with.
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
