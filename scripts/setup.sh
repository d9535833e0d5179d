#!/usr/bin/env bash
# Installs what building and testing perftest needs and is missing, on Debian/Ubuntu:
# cmake, python3, a C++ compiler and git (to build shaderc from source), the Vulkan loader,
# Mesa's drivers (lavapipe: a Vulkan device on the CPU), the validation layers and Chromium
# (the HTML report's browser check), and rustup's rustfmt and clippy.
# Does nothing when everything is present. Other systems: prints what to install.
set -euo pipefail

# shellcheck source=scripts/lib/packages.sh
source "$(dirname "$0")/lib/packages.sh"

missing=()

if ! have apt-get || ! have dpkg-query; then
  if ! have cmake || ! have python3 || ! have c++; then
    echo "setup: please install cmake, python3, a C++ compiler, git and a Vulkan driver + loader" >&2
  fi
  exit 0
fi

have cmake || missing+=(cmake)
have python3 || missing+=(python3)
python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
have c++ || missing+=(g++)
have git || missing+=(git)
for p in libvulkan1 mesa-vulkan-drivers vulkan-validationlayers; do
  have_pkg "$p" || missing+=("$p")
done
# Headless Chromium for the HTML report's browser check (tests/integration/report.rs, scripts/browser-check.sh).
have chromium || have chromium-browser || have google-chrome || missing+=(chromium)

cd "$(dirname "$0")/.."

# The test command checks formatting and lints: rustup's rustfmt and clippy components.
if have rustup; then
  for c in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep "^$c" > /dev/null || rustup component add "$c" >&2
  done
fi

install_packages setup "${missing[@]}"
