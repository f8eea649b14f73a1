#!/bin/sh
# install-test-deps.sh installs what prodlab's tests need beyond Go and Java:
# Debian's chromium, used headless by internal/report's browser test to
# render report.html and check for console errors. It does nothing when
# /usr/bin/chromium already exists, so CI can call it on every run.
set -eu

if [ -x /usr/bin/chromium ]; then
	echo "install-test-deps: /usr/bin/chromium present"
	exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y chromium
