#!/bin/sh
# Translation catalogs with Babel (docs/i18n.md).
#   tools/i18n.sh update    extract the marked strings into the .pot, merge them into every .po
#   tools/i18n.sh compile   compile every .po into its .mo (a checkout does it by itself at first use)
set -eu
cd "$(dirname "$0")/.."
LOCALE=openclaw_tui/locale
case "${1:-update}" in
update)
    pybabel extract -F babel.cfg --no-wrap --sort-by-file --omit-header -o "$LOCALE/openclaw_tui.pot" .
    pybabel update -D openclaw_tui -i "$LOCALE/openclaw_tui.pot" -d "$LOCALE" --no-wrap --no-fuzzy-matching --ignore-obsolete
    ;;
compile)
    pybabel compile -D openclaw_tui -d "$LOCALE" --statistics
    ;;
*)
    echo "usage: tools/i18n.sh [update|compile]" >&2
    exit 2
    ;;
esac
