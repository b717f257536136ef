"""What a stage's ``default`` profile leaves out of its ``large`` profile.

The ``large`` profile of every section of ``params.yaml`` runs the paper's protocol; the
``default`` one may shrink it (fewer repetitions, a smaller grid, fewer sizes) so that the
whole pipeline fits a working session on a two-core machine. The reports print the
differences, generated from ``params.yaml``, so a reader sees what a default run did not do.
"""
from __future__ import annotations

from pathlib import Path

from .pipeline import PROFILES, load_params

MISSING = object()


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v:
            out.update(_flat(v, key + "."))
        else:
            out[key] = v
    return out


def profile_differences(section: str, profile: str = "default", *, against: str = "large",
                        root: str | Path | None = None) -> list[tuple[str, object, object]]:
    """``(parameter, value in profile, value in against)`` for every parameter of
    ``section`` whose value differs between the two profiles (nested mappings compared key
    by key, dotted names; a key one profile lacks has the value ``profiles.MISSING``); an
    empty list when they run the same protocol."""
    for name, value in (("profile", profile), ("against", against)):
        if value not in PROFILES:
            raise ValueError(f"{name} must be one of {PROFILES}, got {value!r}.")
    a = _flat({k: v for k, v in load_params(section, profile, root).items() if k != "profile"})
    b = _flat({k: v for k, v in load_params(section, against, root).items() if k != "profile"})
    rows = []
    for key in sorted(set(a) | set(b)):
        va, vb = a.get(key, MISSING), b.get(key, MISSING)
        if va != vb:
            rows.append((key, va, vb))
    return rows


def _show(v) -> str:
    if v is MISSING:
        return "(not set)"
    if v is None:
        return "null (all)"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v)


def differences_markdown(section: str, profile: str = "default", *,
                         root: str | Path | None = None) -> str:
    """Markdown paragraph and table: what this run's ``profile`` leaves out of the ``large``
    profile (the paper's protocol) for ``section``."""
    if profile == "large":
        return ("This run uses the `large` profile: the paper's protocol as this repository "
                "implements it, nothing left out.")
    rows = profile_differences(section, profile, against="large", root=root)
    if not rows:
        return (f"The `{profile}` profile runs the same protocol as the `large` profile "
                "(the paper's): nothing is left out.")
    lines = [f"This run uses the `{profile}` profile. Where it differs from the `large` "
             f"profile (the paper's protocol; `params.yaml`, section `{section}`), it runs "
             "less, to fit the whole pipeline in a working session on two cores; "
             "`dvc repro` with `profile: large` runs the rest:", "",
             f"| parameter | `{profile}` (this run) | `large` |", "|---|---|---|"]
    lines += [f"| `{k}` | {_show(a)} | {_show(b)} |".replace("*", "\\*") for k, a, b in rows]
    return "\n".join(lines)
