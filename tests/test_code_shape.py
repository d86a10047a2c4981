"""Code shape: a smell detector, the door of every package, and no import lobbies.

A module is split where its name explains the cut, never to meet a line count, so the limits here
are generous smells, not a wall: a module over :data:`MAX_MODULE_LINES` or a function over
:data:`MAX_FUNCTION_LINES` (from its ``def`` line to its last, docstring included, decorators
not; nested functions and methods counted on their own as ``path::Class.method``) is flagged.
:data:`ALLOWED` names the exceptions, each with its reason.

Every package under ``ndcg_studio/`` has an ``__init__.py`` that is only a docstring saying what
the concept is and why it is split into these modules (a door, not a lobby of re-exports), and
callers import a name from the module that defines it: no module lists an imported name in its
``__all__``, and no module imports another module's ``_private`` name. Standard library only
(``ast``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "ndcg_studio"

MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 80

#: Allowed to be longer, with the reason.
ALLOWED: dict[str, str] = {}

#: The fewest words a package docstring needs to say what the concept is and why it is split.
MIN_DOOR_WORDS = 25


def offenders(path: Path, name: str) -> dict[str, int]:
    """``{name: lines}`` of the module (``name``) and of every function in it that is too long."""
    text = path.read_text(encoding="utf-8")
    found: dict[str, int] = {}
    n_lines = len(text.splitlines())
    if n_lines > MAX_MODULE_LINES:
        found[name] = n_lines

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                qualified = prefix + child.name
                assert child.end_lineno is not None
                length = child.end_lineno - child.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    found[f"{name}::{qualified}"] = length
                visit(child, qualified + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(text, filename=str(path)), "")
    return found


def all_offenders() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        found.update(offenders(path, path.relative_to(ROOT).as_posix()))
    return found


def test_no_module_or_function_smells_of_size() -> None:
    new = {name: lines for name, lines in all_offenders().items() if name not in ALLOWED}
    assert not new, (
        f"over {MAX_MODULE_LINES} lines (module) or {MAX_FUNCTION_LINES} (function): is it one "
        f"concept? Split where a name explains the cut, or add it to ALLOWED with the reason: {new}"
    )


def test_exception_list_is_not_stale() -> None:
    found = all_offenders()
    stale = sorted(name for name in ALLOWED if name not in found)
    assert not stale, f"no longer too long (or renamed): remove from ALLOWED: {stale}"


def door_problems(init: Path) -> list[str]:
    """Why a package's ``__init__.py`` is not a door: no docstring, too short, or code in it."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree) or ""
    problems = []
    if len(doc.split()) < MIN_DOOR_WORDS:
        problems.append(f"docstring of {len(doc.split())} words (what the concept is, why split)")
    body = [node for node in tree.body if not isinstance(node, ast.Expr)]
    body = [
        node
        for node in body
        if not (isinstance(node, ast.ImportFrom) and node.module == "__future__")
        and not (  # the version, read by the build (hatch) from the top package
            init.parent == PACKAGE
            and isinstance(node, ast.Assign)
            and [getattr(t, "id", "") for t in node.targets] == ["__version__"]
        )
    ]
    if body:
        problems.append(f"{len(body)} statement(s) besides the docstring: a lobby, not a door")
    return problems


def test_every_package_has_a_door() -> None:
    bad = {}
    for init in sorted(PACKAGE.rglob("__init__.py")):
        problems = door_problems(init)
        if problems:
            bad[init.relative_to(ROOT).as_posix()] = problems
    assert not bad, bad


def _module_names() -> dict[str, Path]:
    names = {}
    for path in PACKAGE.rglob("*.py"):
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        names[dotted.removesuffix(".__init__")] = path
    return names


def lobby_problems(path: Path) -> list[str]:
    """Names a module lists in ``__all__`` without defining them (re-exports)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported: set[str] = set()
    listed: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom | ast.Import):
            imported.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__all__" for target in node.targets
        ):
            assert isinstance(node.value, ast.List | ast.Tuple)
            listed = [elt.value for elt in node.value.elts if isinstance(elt, ast.Constant)]
    return [name for name in listed if name in imported]


def private_imports(path: Path) -> list[str]:
    """``module._name`` imported from another module of the package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").startswith("ndcg_studio")
        ):
            found += [
                f"{node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_")
                and not alias.name.startswith("__")
                and alias.name != "_paths"
            ]
    return found


def test_no_module_re_exports() -> None:
    bad = {}
    for name, path in sorted(_module_names().items()):
        problems = lobby_problems(path)
        if problems:
            bad[name] = problems
    assert not bad, f"import these from the module that defines them: {bad}"


def test_no_private_name_crosses_a_module() -> None:
    bad = {}
    for name, path in sorted(_module_names().items()):
        found = private_imports(path)
        if found:
            bad[name] = found
    assert not bad, f"a name shared between modules is public (drop the underscore): {bad}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('"""Short."""\n', ["docstring of 1 words (what the concept is, why split)"]),
        ('"""' + "word " * MIN_DOOR_WORDS + '"""\nfrom a import b\n', ["1 statement(s)"]),
        ('"""' + "word " * MIN_DOOR_WORDS + '"""\nfrom __future__ import annotations\n', []),
    ],
)
def test_the_door_check_would_catch_a_lobby(tmp_path: Path, source: str, expected: list[str]):
    init = tmp_path / "__init__.py"
    init.write_text(source, encoding="utf-8")
    problems = door_problems(init)
    assert len(problems) == len(expected)
    assert all(p.startswith(e) for p, e in zip(problems, expected, strict=True))


def test_the_lobby_and_private_checks_would_catch_them(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from ndcg_studio.x import A, _hidden\ndef f(): pass\n__all__ = ['A', 'f']\n",
        encoding="utf-8",
    )
    assert lobby_problems(module) == ["A"]
    assert private_imports(module) == ["ndcg_studio.x._hidden"]


def test_the_measure_counts_def_to_end_and_nested_functions(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_FUNCTION_LINES - 2))
    source = (
        f'def fits():\n    """Doc."""\n{body}\n\n\n'  # def + docstring + body = the limit
        f'class C:\n    @staticmethod\n    def long():\n        """Doc."""\n'
        + "\n".join(f"        y{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
        + "\n\n        def inner():\n            return 1\n"
    )
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    found = offenders(path, "m.py")
    # fits: exactly the limit; C.long: one more + the 3 lines of inner (and the blank line before)
    assert found == {"m.py::C.long": MAX_FUNCTION_LINES + 4}
    path.write_text("x = 1\n" * MAX_MODULE_LINES, encoding="utf-8")
    assert offenders(path, "m.py") == {}
    path.write_text("x = 1\n" * (MAX_MODULE_LINES + 1), encoding="utf-8")
    assert offenders(path, "m.py") == {"m.py": MAX_MODULE_LINES + 1}
