"""`sticks-tui settings path|show|reset`, through `cli.main` in-process."""

from __future__ import annotations

import json
import tomllib

import pytest

from cli_here import run_here
from sticks_tui.cli import main
from sticks_tui.store.settings import ENV_CONFIG_DIR, Settings, load_settings, save_settings

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"


@pytest.fixture
def cfg(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV_CONFIG_DIR, raising=False)
    return tmp_path / "cfg"


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_path_follows_the_option_and_the_environment(capsys, cfg, monkeypatch, tmp_path):
    assert cli(capsys, "--config-dir", str(cfg), "settings", "path") == (0, f"{cfg / 'settings.toml'}\n", "")
    monkeypatch.setenv(ENV_CONFIG_DIR, str(tmp_path / "env"))
    assert cli(capsys, "settings", "path")[1] == f"{tmp_path / 'env' / 'settings.toml'}\n"
    assert not cfg.exists() and not (tmp_path / "env").exists()  # asking where changes nothing


def test_show_prints_the_defaults_then_the_saved_settings(capsys, cfg):
    code, out, err = cli(capsys, "--config-dir", str(cfg), "settings", "show")
    assert code == 0 and err == ""
    assert tomllib.loads(out)["game"] == "sticks" and "games" not in tomllib.loads(out)  # no game's own choice yet
    save_settings(Settings(games={"sticks": {"start": 42}}, name1="Ann", keys={"quit": "f10"}), cfg / "settings.toml")
    code, out, _ = cli(capsys, "--config-dir", str(cfg), "settings", "show", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["games"] == {"sticks": {"start": 42}} and doc["name1"] == "Ann"
    assert doc["keys"] == {"quit": "f10"}
    assert doc["path"] == str(cfg / "settings.toml")


def test_show_reports_a_broken_file_in_one_line_and_changes_nothing(capsys, cfg):
    cfg.mkdir()
    (cfg / "settings.toml").write_bytes(PNG)
    code, out, err = cli(capsys, "--config-dir", str(cfg), "settings", "show")
    assert code == 0 and tomllib.loads(out)["name1"] == "Player 1"
    assert len(err.strip().splitlines()) == 1 and "is damaged" in err and "left as it is" in err
    assert sorted(p.name for p in cfg.iterdir()) == ["settings.toml"]


def test_reset_keeps_the_old_file_and_says_where(capsys, cfg):
    code, out, _ = cli(capsys, "--config-dir", str(cfg), "settings", "reset")
    assert code == 0 and "defaults are in use already" in out
    save_settings(Settings(name1="Ann"), cfg / "settings.toml")
    code, out, _ = cli(capsys, "--config-dir", str(cfg), "settings", "reset")
    kept = [p for p in cfg.iterdir() if p.name.startswith("settings.toml.old-")]
    assert code == 0 and len(kept) == 1 and str(kept[0]) in out
    assert load_settings(kept[0])[0].name1 == "Ann" and load_settings(cfg / "settings.toml") == (Settings(), [])


def test_reset_refuses_a_folder(capsys, cfg):
    (cfg / "settings.toml").mkdir(parents=True)
    code, _, err = cli(capsys, "--config-dir", str(cfg), "settings", "reset")
    assert code == 1 and "is a folder" in err and (cfg / "settings.toml").is_dir()


def test_bad_action_is_a_usage_error(capsys, cfg):
    code, _, err = cli(capsys, "--config-dir", str(cfg), "settings", "explode")
    assert code == 2 and "invalid choice" in err


def test_the_real_command_with_a_foreign_file(cfg, capsys, monkeypatch, tmp_path):
    """`settings show` as the command runs it (`cli.main` in-process, the folder from the environment: a real
    process's reading of the environment is held by test_cli_store.py's
    test_the_environment_variable_is_honoured_in_a_real_process); `settings reset` through cli.main."""
    cfg.mkdir()
    (cfg / "settings.toml").write_text("[1, 2, 3]\n")
    done = run_here(tmp_path / "data", ["settings", "show", "--json"], env={ENV_CONFIG_DIR: str(cfg)})
    assert done.returncode == 0 and json.loads(done.stdout)["game"] == "sticks"
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    monkeypatch.setenv(ENV_CONFIG_DIR, str(cfg))
    code, out, _ = cli(capsys, "settings", "reset")
    assert code == 0 and "kept as" in out
    assert [p.read_text() for p in cfg.iterdir()] == ["[1, 2, 3]\n"]
