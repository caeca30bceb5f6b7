"""Where a writing run may write and delete: inside the project, never a file it did not write.

The project is the config file's folder or the git work tree holding it (Config.project).
`check_output` is the one rule every output key obeys (OUTPUT_KEYS): its path, links
followed, lies inside the project, or (for a folder) `external_skills_dir = true` opts out;
it is never the project's root nor a folder holding the project. The `fallback_file` copy
must also be a regular file, and either new or a copy pygen wrote (it carries pygen's
frontmatter), so a mistyped path can never replace a source file, a device or a file
outside the repo. `may_write` says whether one file lies in those places (a journal's
entries are checked with it).
"""

from __future__ import annotations

import os
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


# Every config key naming where `gen` writes; True for a folder (external_skills_dir may
# let it lie outside the project), False for a file (always inside).
OUTPUT_KEYS = {"skills_dir": True, "agent_skills_dir": True, "fallback_file": False}


def outputs(config: Config) -> list[tuple[str, Path]]:
    """Each output key that is set, with its path (absolute, links not yet followed)."""
    found = [(key, getattr(config.settings, key)) for key in OUTPUT_KEYS]
    return [(key, Path(os.path.abspath(config.root / value))) for key, value in found
            if value]


def check_targets(config: Config) -> None:
    """Fail in one line when a writing run would write outside the project or over a file
    it does not own; checked before anything is read or written."""
    where = str(config.source or "the pygen config")
    for key, path in outputs(config):
        check_output(config, key, path, where)
    found = dict(outputs(config))
    agent, skills = found.get("agent_skills_dir"), config.skills_dir
    if agent is not None and (agent.resolve().is_relative_to(skills.resolve())
                              or skills.resolve().is_relative_to(agent.resolve())):
        raise ConfigError(f"{agent}: agent_skills_dir overlaps skills_dir ({skills}); each "
                          f"needs a folder of its own: fix agent_skills_dir in {where}")
    fallback = config.fallback_file
    if fallback is not None:
        _check_fallback(fallback, where)


def check_output(config: Config, key: str, path: Path, where: str) -> None:
    """The one rule of where an output key may point (see the module's docstring)."""
    project = " or ".join(str(folder) for folder in config.project)
    real = path.resolve()
    via = f" (through a link, to {real})" if real != Path(os.path.abspath(path)) else ""
    holds = [folder for folder in config.project if folder.is_relative_to(real)]
    if holds:
        what = "is the project's root" if real in holds else "holds the project"
        raise ConfigError(f"{path}: {key} {what}{via}; pygen would write over the project's "
                          f"own files: point {key} in {where} at a folder of its own")
    if config.inside(path) or (OUTPUT_KEYS[key] and config.settings.external_skills_dir):
        return
    opt = " or set external_skills_dir = true" if OUTPUT_KEYS[key] else ""
    raise ConfigError(f"{path}: {key} is outside the project ({project}){via}; pygen writes "
                      f"only inside it: fix {key} in {where}{opt}")


def may_write(config: Config, path: Path) -> bool:
    """Whether a file lies in a place this config's writing runs write (links followed)."""
    real = path.resolve()
    for key, target in outputs(config):
        place = target.resolve()
        if real == place or (OUTPUT_KEYS[key] and real.is_relative_to(place)):
            return True
    return False


def _check_fallback(fallback: Path, where: str) -> None:
    try:
        text = files.read_text(fallback)
    except PygenError as exc:
        raise ConfigError(f"{exc}: fix fallback_file in {where}") from None
    if text is not None and not written_by_pygen(text):
        raise ConfigError(f"{fallback}: fallback_file names a file pygen did not write (no "
                          "pygen frontmatter), which gen would replace: fix fallback_file in "
                          f"{where}, or delete the file so gen writes the copy")
