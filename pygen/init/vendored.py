"""Which files of a project are copies of someone else's code: a vendored library, a minified
bundle, an installed package checked in. They give no evidence of the editor's catalog: a
copied litegraph or jshint declares classes and registrations of its own, never the app's.

Told by what the tree shows, never by a library's name: a folder named for vendored code, a
folder of distribution files (it holds a `*.min.js`), a package.json npm wrote on install, a
file named as a build artifact, or text that is minified or opens with a bundler's wrapper.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

VENDOR_DIRS = frozenset({"vendor", "vendors", "third_party", "third-party", "thirdparty",
                         "bower_components", "jspm_packages", "web_modules"})
# `jquery.min.js`, `app.bundle.js`, `lib-bundle.mjs`, `chart.umd.js`: build artifacts. A
# TypeScript file is source whatever its name (`output-bundle.tsx` is a component).
ARTIFACT_NAME = re.compile(r"(?i)(?:\.min\.[cm]?[jt]sx?|[.-](?:bundle|umd|packed)\.[cm]?jsx?)$")
# npm writes these into the package.json of what it installs; a project's own never has them.
INSTALLED_KEYS = ("_resolved", "_integrity", "_from")
# A bundler's or UMD wrapper's opening lines (webpack, rollup/UMD, browserify).
BUNDLE_HEAD = re.compile(
    r"webpackBootstrap|__webpack_require__|typeof exports\s*===?\s*['\"]object['\"]\s*&&\s*"
    r"typeof module\s*!==?\s*['\"]undefined['\"]|\(function\s*\(\s*global\s*,\s*factory\s*\)")
# Minified text: long lines on average.
MINIFIED_MEAN = 300
MINIFIED_MIN_BYTES = 4000
HEAD = 3000


def vendored_dir(folder: Path, names: list[str]) -> bool:
    """Whether the folder (holding files `names`) is a copy of other people's code."""
    if folder.name.lower() in VENDOR_DIRS:
        return True
    if any(n.endswith((".min.js", ".min.mjs", ".min.cjs")) for n in names):
        return True  # a folder of distribution files, beside which copies sit unminified
    if "package.json" in names:
        try:
            data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError):
            return False
        return isinstance(data, dict) and any(k in data for k in INSTALLED_KEYS)
    return False


def vendored_name(name: str) -> bool:
    return bool(ARTIFACT_NAME.search(name))


def vendored_text(text: str) -> bool:
    """Whether the text is minified or a bundle: no one writes a catalog like that."""
    if BUNDLE_HEAD.search(text[:HEAD]):
        return True
    if len(text) < MINIFIED_MIN_BYTES:
        return False
    # The mean, not one long line: hand-written files hold long lines too (an icon's SVG
    # path, an embedded data string), a minifier's output is long lines throughout.
    return len(text) / (text.count("\n") + 1) > MINIFIED_MEAN
