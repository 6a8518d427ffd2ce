#!/bin/sh
# Installs Rookery from this source tree: the program into PREFIX (default /opt/rookery), and, run
# as root, a system user `rookery`, the data folder /var/lib/rookery, a settings file
# /etc/rookery/rookery.env, the `rookery` command in /usr/local/bin, and the systemd unit (not
# enabled). The container image (Dockerfile) runs this very script, and CI runs it and tests what it
# installed. Running it again upgrades in place: the data folder and the settings are kept.
#
#   deploy/install.sh [PREFIX]
#   ROOKERY_INSTALL_SYSTEM=0 deploy/install.sh PREFIX   # the program only: no user, folders or unit
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=${1:-/opt/rookery}
DATA=/var/lib/rookery
SYSTEM=${ROOKERY_INSTALL_SYSTEM:-1}

say() { printf 'install: %s\n' "$*"; }
die() { printf 'install: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null 2>&1 || die "Node.js is needed (see package.json \"engines\")"
command -v npm >/dev/null 2>&1 || die "npm is needed (it comes with Node.js)"
node -e '
  const wanted = require(process.argv[1]).engines.node;
  const least = Number(/\d+/.exec(wanted)[0]);
  const major = Number(process.versions.node.split(".")[0]);
  // Node.js 20 is past its end of life but still runs Rookery (src/db/sqlite-binding.ts): a warning.
  if (major < 20) { console.error(`install: Node.js ${wanted} is needed, this is ${process.version}`); process.exit(1); }
  if (major < least) console.error(`install: warning: Node.js ${wanted} is supported, this is ${process.version}, past its end of life`);
' "$SRC/package.json"
if [ "$SYSTEM" = 1 ] && [ "$(id -u)" != 0 ]; then
  die "run as root to create the user, folders and unit, or set ROOKERY_INSTALL_SYSTEM=0 to install the program only"
fi

say "building in $SRC"
cd "$SRC"
# npm install (not npm ci): with lockfiles that omit resolved URLs, npm ci misreads optional
# platform packages as missing; npm install still installs exactly what the lockfile pins. It
# builds the command and the web app too (the prepare script).
npm install --no-audit --no-fund --loglevel=error
# Built again: an install with nothing new to fetch may leave an older build in dist/.
npm run build --silent
[ -x dist/rookery.js ] || die "the build made no dist/rookery.js"

say "installing into $PREFIX"
NEW="$PREFIX.new.$$"
rm -rf "$NEW"
mkdir -p "$NEW/dist"
cp dist/rookery.js dist/rookery.js.map "$NEW/dist/"
if [ -d dist/web ]; then cp -R dist/web "$NEW/dist/web"; fi
cp package.json package-lock.json README.md "$NEW/"
cp -R deploy "$NEW/deploy"
cp -R node_modules "$NEW/node_modules"
# What the program needs at run time only: the build tools and test libraries go.
(cd "$NEW" && npm prune --omit=dev --no-audit --no-fund --loglevel=error)
# The old installation is replaced at once; a server still running it keeps its open files.
if [ -e "$PREFIX" ]; then
  rm -rf "$PREFIX.old"
  mv "$PREFIX" "$PREFIX.old"
fi
mv "$NEW" "$PREFIX"
rm -rf "$PREFIX.old"
chmod -R a+rX "$PREFIX"

if [ "$SYSTEM" != 1 ]; then
  say "done: $PREFIX/dist/rookery.js"
  exit 0
fi

if ! id rookery >/dev/null 2>&1; then
  say "creating the system user rookery"
  useradd --system --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin --user-group rookery
fi
mkdir -p "$DATA"
chown rookery:rookery "$DATA"
chmod 0750 "$DATA"
mkdir -p /etc/rookery
if [ ! -e /etc/rookery/rookery.env ]; then
  cat >/etc/rookery/rookery.env <<'SETTINGS'
# Rookery's settings (ROOKERY_*), read by the service and by `rookery` commands run with
#   set -a; . /etc/rookery/rookery.env; set +a
# See the README's Configuration section for every variable.
ROOKERY_DATA_DIR=/var/lib/rookery
ROOKERY_HOST=127.0.0.1
ROOKERY_PORT=9991
# The address clients use (behind a proxy, or with ROOKERY_TLS_CERT):
#ROOKERY_EXTERNAL_URL=https://chat.example.com
#ROOKERY_TRUSTED_PROXIES=127.0.0.1
#ROOKERY_SMTP_URL=smtp://user:password@mail.example.com:587
#ROOKERY_EMAIL_FROM=Example Chat <chat@example.com>
SETTINGS
  chown root:rookery /etc/rookery/rookery.env
  chmod 0640 /etc/rookery/rookery.env
fi
ln -sf "$PREFIX/dist/rookery.js" /usr/local/bin/rookery
if [ -d /etc/systemd/system ]; then
  sed "s|/opt/rookery/|$PREFIX/|g" "$PREFIX/deploy/rookery.service" >/etc/systemd/system/rookery.service
  say "installed /etc/systemd/system/rookery.service: systemctl daemon-reload && systemctl enable --now rookery"
fi
say "done: $PREFIX, data in $DATA, settings in /etc/rookery/rookery.env"
