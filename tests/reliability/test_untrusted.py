"""Untrusted names and files: names cannot escape the workspace, checkpoints load only from safetensors
(no pickle, no remote code), uploads are never executed, jobs start without a shell."""

from __future__ import annotations

import ast
import json
import os
import pickle
import shutil
from pathlib import Path

import numpy as np
import pytest

from core.cli import main
from core.embedding import ModelSpec, load_backbone
from core.errors import CorpusError, MireadError
from core.records import Paper
from core.store import Store, check_name
from tests.helpers import make_papers, register_tiny
from tests.reliability.support import ROOT, TALLY, check_one_sentence, cli

BAD_NAMES = ["../evil", "../../etc/passwd", "/abs/path", "/tmp/x", "..", ".", "a/b", "a\\b", "x\x00y", "\n",
             "a\nb", " ", "", "a" * 65, "a" * 5000, "名前", "a..b", "-flag", "~", "~/x", "$(touch pwned)", "`id`",
             "%2e%2e%2fx", "a;rm -rf", "C:\\x", "\u202eevil", ".hidden", "*", "a?b", "<script>"]
GOOD_NAMES = ["arxiv", "my corpus", "v1.2", "pubmed_2024-01", "A" * 64]


def tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


@pytest.mark.parametrize("name", BAD_NAMES)
def test_unsafe_corpus_names_are_refused_with_one_sentence_and_touch_nothing(name, tmp_path):
    store = Store(tmp_path / "ws")
    outside = tree(tmp_path)
    with pytest.raises(CorpusError) as refused:
        store.import_papers(name, make_papers(1), source="x.csv")
    check_one_sentence(str(refused.value))
    assert tree(tmp_path) == outside and store.corpora() == []
    TALLY["names: unsafe names refused"] += 1


def test_safe_names_keep_every_derived_file_inside_the_workspace(store):
    for name in GOOD_NAMES:
        assert check_name(name) == name
        store.import_papers(name, make_papers(1), source="x.csv")
        for kind in ("maps", "indexes", "matrices"):
            path = store.array_path(kind, name, "0123456789abcdef-v1").resolve()
            assert path.parent == (store.arrays / kind).resolve()
    assert {c.name for c in store.corpora()} == set(GOOD_NAMES)


def test_corpus_names_that_differ_only_in_spaces_and_underscores_get_distinct_files(store):
    names = ["a b", "a_b", "a-b", "a", "a-2024", "a-0123456789abcdef"]
    slugs = {store.corpus_slug(n) for n in names}
    assert len(slugs) == len(names)
    fp = "0123456789abcdef"
    for name in names:
        store.import_papers(name, make_papers(1), source=f"{name}.csv")
        store.array_path("maps", name, f"{fp}-v1-umap").write_bytes(b"x")
    store.delete_corpus("a")
    left = {p.name for p in (store.arrays / "maps").iterdir()}
    assert {f"{store.corpus_slug(n)}-{fp}-v1-umap.npy" for n in names if n != "a"} == left


def test_the_cli_refuses_unsafe_names_for_corpora_models_and_jobs(tmp_path, tiny_model_dir, capsys):
    workspace = tmp_path / "ws"
    store = Store(workspace)
    store.import_papers("ok", make_papers(4), source="ok.jsonl")
    register_tiny(store, tiny_model_dir)
    data = tmp_path / "papers.csv"
    data.write_text("title,abstract\nA title,An abstract\n", encoding="utf-8")
    outside = tree(tmp_path) - {p for p in tree(tmp_path) if p.startswith("ws")}
    commands = []
    for bad in ("../evil", "/tmp/evil", "a/b", "..", "x" * 200):
        commands += [["import", str(data), "--corpus", bad], ["embed", "--corpus", bad, "--model", "tiny"],
                     ["search", "--corpus", bad, "--model", "tiny", "--title", "x"], ["cancel", bad],
                     ["train", "--corpus", "ok", "--label", "journal", "--base", "tiny", "--name", bad]]
    for command in commands:
        assert main(["--workspace", str(workspace), *command]) == 2, command
        _, err = capsys.readouterr()
        assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
        TALLY["names: unsafe CLI names refused"] += 1
    assert tree(tmp_path) - {p for p in tree(tmp_path) if p.startswith("ws")} == outside
    assert [c.name for c in store.corpora()] == ["ok"]
    assert [m["name"] for m in store.saved_models()] == ["tiny"]
    done = cli(workspace, "import", str(data), "--corpus", "../../escape")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "escape").exists()


class Payload:
    """A pickle that would create a marker file if anything unpickled it."""

    marker: Path

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def pickle_checkpoint(tiny: Path, folder: Path) -> Path:
    """A model folder whose weights are only a malicious pytorch_model.bin (no model.safetensors)."""
    shutil.copytree(tiny, folder)
    (folder / "model.safetensors").unlink()
    Payload.marker = folder.parent / "PICKLE_RAN"
    with open(folder / "pytorch_model.bin", "wb") as out:
        pickle.dump(Payload(), out)
    return folder


def test_a_checkpoint_with_only_pickle_weights_is_refused_and_never_unpickled(tmp_path, tiny_model_dir, capsys):
    folder = pickle_checkpoint(tiny_model_dir, tmp_path / "pickled")
    with pytest.raises(MireadError, match="model.safetensors") as refused:
        load_backbone(ModelSpec("pickled", "checkpoint", str(folder)))
    check_one_sentence(str(refused.value))
    store = Store(tmp_path / "ws")
    store.import_papers("c", make_papers(2), source="c.jsonl")
    assert main(["--workspace", str(store.root), "embed", "--corpus", "c", "--model", str(folder)]) == 2
    assert "model.safetensors" in capsys.readouterr().err
    assert not (tmp_path / "PICKLE_RAN").exists()
    TALLY["untrusted files: pickle checkpoints refused"] += 2


def test_a_checkpoint_asking_for_remote_code_does_not_run_it(tmp_path, tiny_model_dir):
    folder = tmp_path / "remote"
    shutil.copytree(tiny_model_dir, folder)
    config = json.loads((folder / "config.json").read_text())
    config["auto_map"] = {"AutoModel": "evil.EvilModel", "AutoTokenizer": ["evil.EvilTokenizer", None]}
    (folder / "config.json").write_text(json.dumps(config))
    marker = tmp_path / "REMOTE_CODE_RAN"
    (folder / "evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n"
                                    "from transformers import BertModel as EvilModel\n")
    try:
        load_backbone(ModelSpec("remote", "checkpoint", str(folder)))
    except MireadError as exc:
        check_one_sentence(str(exc))
    assert not marker.exists()
    TALLY["untrusted files: remote-code checkpoints not run"] += 1


def test_a_damaged_safetensors_file_is_refused_with_one_sentence(tmp_path, tiny_model_dir):
    folder = tmp_path / "damaged"
    shutil.copytree(tiny_model_dir, folder)
    weights = folder / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000])
    with pytest.raises(MireadError):
        load_backbone(ModelSpec("damaged", "checkpoint", str(folder)))


def test_a_damaged_journal_head_is_refused_with_one_sentence(tmp_path, tiny_model_dir):
    from core.embedding import Encoder

    folder = tmp_path / "head"
    shutil.copytree(tiny_model_dir, folder)
    (folder / "head.safetensors").write_bytes(b"not a safetensors file")
    with pytest.raises(MireadError):
        Encoder(ModelSpec("head", "checkpoint", str(folder), labels=["a", "b"]), device="cpu")


# -- the code itself: no shell, no pickle, no eval, no unescaped HTML ------------------------
def python_files() -> list[Path]:
    return sorted([*(ROOT / "core").glob("*.py"), *(ROOT / "app_pages").glob("*.py"), *(ROOT / "ui").glob("*.py"), ROOT / "app.py"])


def calls(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            keywords = {k.arg: ast.unparse(k.value) for k in node.keywords if k.arg}
            yield node, name, keywords


def test_the_code_never_uses_a_shell_pickle_eval_or_unescaped_html():
    problems = []
    for path in python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if any(m.split(".")[0] in ("pickle", "dill", "marshal", "shelve", "cloudpickle") for m in modules):
                    problems.append(f"{where}:{node.lineno} imports a pickle module")
        for node, name, keywords in calls(tree):
            if keywords.get("shell") == "True":
                problems.append(f"{where}:{node.lineno} {name}(shell=True)")
            if name in ("os.system", "os.popen", "eval", "exec", "compile", "torch.load", "yaml.load",
                        "subprocess.getoutput", "subprocess.getstatusoutput", "__import__"):
                problems.append(f"{where}:{node.lineno} calls {name}")
            if keywords.get("allow_pickle") == "True" or keywords.get("trust_remote_code") == "True":
                problems.append(f"{where}:{node.lineno} {name} allows pickle or remote code")
            if keywords.get("unsafe_allow_html") == "True":
                problems.append(f"{where}:{node.lineno} renders HTML unescaped")
            if name.startswith("subprocess.") and node.args and isinstance(node.args[0], (ast.Constant,
                                                                                          ast.JoinedStr)):
                problems.append(f"{where}:{node.lineno} starts a process from a command string")
    assert problems == []
    TALLY["untrusted files: source files checked for shell/pickle/eval/unescaped HTML"] = len(python_files())


def test_background_jobs_start_with_an_argument_list_and_no_shell():
    tree = ast.parse((ROOT / "core" / "training" / "jobs.py").read_text(encoding="utf-8"))
    popen = [(node, kw) for node, name, kw in calls(tree) if name == "subprocess.Popen"]
    assert popen, "core/training/jobs.py no longer starts jobs with subprocess.Popen"
    assigned = {t.id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
                for t in n.targets if isinstance(t, ast.Name)}
    for node, keywords in popen:
        first = node.args[0]
        value = assigned.get(first.id) if isinstance(first, ast.Name) else first
        assert isinstance(value, ast.List), ast.unparse(first)
        assert keywords.get("shell", "False") == "False"


def test_uploaded_files_are_only_read_never_imported_or_run():
    names: set[str] = set()
    for page in ("app_pages/library.py", "ui/uploads.py", "ui/import_preview.py"):  # the upload, preview, import
        tree = ast.parse((ROOT / page).read_text(encoding="utf-8"))
        names |= {name for _, name, _ in calls(tree)}
    assert not names & {"runpy.run_path", "importlib.import_module", "exec", "eval", "subprocess.run",
                        "subprocess.Popen", "os.system"}
    assert "upload.getbuffer" in names and "import_file" in names


def test_the_html_map_export_shows_scripts_and_links_in_corpus_text_as_text(store):
    from core.cli.search import map_export_html

    evil = {"title": "</script><script>alert(1)</script>", "journal": '<a href="javascript:alert(3)">J</a>',
            "abstract": "<img src=x onerror=alert(2)>"}
    store.import_papers("evil", [Paper(f"e{i}", f"{evil['title']} {i}", evil["abstract"], {"journal": evil["journal"]})
                                 for i in range(3)], source="evil.csv")
    html = map_export_html(store, "evil", {"coords": np.zeros((3, 2)), "model": "m", "method": "pca"},
                           color="journal")
    for active in ("<script>alert", "<img src=x", '<a href="javascript'):
        assert active not in html
    TALLY["untrusted files: HTML exports checked for active markup"] += 1
