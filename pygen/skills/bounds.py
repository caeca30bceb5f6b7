"""Where a writing run may write and delete: inside the project, never a file it did not write.

The project is the config file's folder or the git work tree holding it (Config.project). A
`skills_dir` elsewhere needs `external_skills_dir = true`; the `fallback_file` copy must be
inside, a regular file, and either new or a copy pygen wrote (it carries pygen's frontmatter),
so a mistyped path can never replace a source file, a device or a file outside the repo.
"""

from __future__ import annotations

from pathlib import Path

from pygen import files
from pygen.config import Config
from pygen.errors import ConfigError, PygenError
from pygen.skills import frontmatter

# Frontmatter keys only pygen writes: a file holding one was written by pygen.
PYGEN_KEYS = ("pygen_digests", "generated_at")


def written_by_pygen(text: str) -> bool:
    """Whether a skill file carries the frontmatter pygen stamps on what it writes."""
    fields = frontmatter.read(text)
    return any(key in fields for key in PYGEN_KEYS)


def check_targets(config: Config) -> None:
    """Fail in one line when a writing run would write outside the project or over a file
    it does not own; checked before anything is read or written."""
    where = str(config.source or "the pygen config")
    project = " or ".join(str(folder) for folder in config.project)
    skills = config.skills_dir
    if not config.settings.external_skills_dir and not config.inside(skills):
        raise ConfigError(f"{skills}: skills_dir is outside the project ({project}); pygen "
                          f"writes only inside it: fix skills_dir in {where} or set "
                          "external_skills_dir = true")
    fallback = config.fallback_file
    if fallback is not None:
        _check_fallback(config, fallback, where, project)


def _check_fallback(config: Config, fallback: Path, where: str, project: str) -> None:
    if not config.inside(fallback):
        raise ConfigError(f"{fallback}: fallback_file is outside the project ({project}); "
                          f"pygen writes only inside it: fix fallback_file in {where}")
    try:
        text = files.read_text(fallback)
    except PygenError as exc:
        raise ConfigError(f"{exc}: fix fallback_file in {where}") from None
    if text is not None and not written_by_pygen(text):
        raise ConfigError(f"{fallback}: fallback_file names a file pygen did not write (no "
                          "pygen frontmatter), which gen would replace: fix fallback_file in "
                          f"{where}, or delete the file so gen writes the copy")
