"""weaklabel.profiles: what a run's profile leaves out of the paper's protocol."""
import textwrap
from pathlib import Path

import pytest

from weaklabel.profiles import MISSING, differences_markdown, profile_differences

REPO = Path(__file__).resolve().parents[1]

PARAMS = textwrap.dedent("""\
    profile: default
    same:
      a: 1
      default: &same_default
        b: [1, 2]
      large: *same_default
      smoke: {b: [1]}
    shrunk:
      a: 1
      nested: {x: 1, y: [1, 2]}
      default:
        b: 2
        nested: {x: 1, y: [1]}
      large:
        b: 10
        extra: null
      smoke: {}
""")


@pytest.fixture
def root(tmp_path):
    (tmp_path / "params.yaml").write_text(PARAMS)
    return tmp_path


def test_identical_profiles_have_no_difference(root):
    # must not fire: default and large are one mapping
    assert profile_differences("same", root=root) == []
    assert "nothing is left out" in differences_markdown("same", root=root)
    assert profile_differences("shrunk", "large", against="large", root=root) == []


def test_differences_are_listed_key_by_key(root):
    rows = profile_differences("shrunk", root=root)
    assert rows == [("b", 2, 10), ("extra", MISSING, None), ("nested.y", [1], [1, 2])]
    md = differences_markdown("shrunk", root=root)
    assert "| `b` | 2 | 10 |" in md
    assert "| `extra` | (not set) | null (all) |" in md
    assert "`nested.x`" not in md          # equal in both: not listed


def test_large_run_says_nothing_is_left_out(root):
    assert "nothing left out" in differences_markdown("shrunk", "large", root=root)


def test_bad_profile_and_section_are_named(root):
    with pytest.raises(ValueError, match="profile must be one of"):
        profile_differences("shrunk", "bogus", root=root)
    with pytest.raises(ValueError, match="against must be one of"):
        profile_differences("shrunk", against="huge", root=root)
    with pytest.raises(ValueError, match="no section 'nope'"):
        profile_differences("nope", root=root)


def test_repository_profiles_shrink_only_declared_stages():
    # the stages whose default shrinks the protocol list it; mcls runs the same protocol
    assert profile_differences("mcls", root=REPO) == []
    for section in ("usmo", "wellsvm", "tsgsu", "wellsvm_clustering"):
        assert profile_differences(section, root=REPO), section
