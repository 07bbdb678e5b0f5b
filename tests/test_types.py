"""The client type-checks clean under the repository's mypy settings (`pyproject.toml`), and every
`# type: ignore` in `playground/` names its error code and says why it is there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IGNORE = re.compile(r"#\s*type:\s*ignore")
EXPLAINED = re.compile(r"#\s*type:\s*ignore\[[a-z0-9-]+(?:,\s*[a-z0-9-]+)*\]  # \S")
"""`# type: ignore[code]  # why` (or several codes), the reason on the same line."""
def test_the_client_type_checks_clean() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", "/dev/null", "playground/client"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"mypy playground/client is not clean:\n{done.stdout}{done.stderr}"


def unexplained_ignores(root: Path) -> list[str]:
    """`file:line text` for each `# type: ignore` under `root` without a code and a reason."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if IGNORE.search(line) and not EXPLAINED.search(line):
                found.append(f"{path.relative_to(root.parent)}:{number} {line.strip()}")
    return found


def test_every_type_ignore_names_its_code_and_its_reason() -> None:
    found = unexplained_ignores(ROOT / "playground")
    assert not found, "write `# type: ignore[code]  # why` (or fix the type):\n" + "\n".join(found)


def test_an_ignore_without_a_reason_is_found(tmp_path: Path) -> None:
    package = tmp_path / "playground"
    package.mkdir()
    (package / "a.py").write_text("x: int = 'a'  # type: ignore[assignment]\n"
                                  "y: int = 'b'  # type: ignore[assignment]  # a reason\n"
                                  "z: int = 'c'  # type: ignore\n")
    assert unexplained_ignores(package) == ["playground/a.py:1 x: int = 'a'  # type: ignore[assignment]",
                                            "playground/a.py:3 z: int = 'c'  # type: ignore"]
