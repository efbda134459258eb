"""`ruledsl view`: the page's data (what each seat's view holds), bad input, and the page
itself in a real (headless) browser when Chromium is installed."""
from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruledsl.cli import main
from ruledsl.pipeline import load_game
from ruledsl.play.view import board_drawings, changes
from ruledsl.play.view_layout import grid_coords
from support import GAMES, ROOT, record_game, run_process

pytestmark = pytest.mark.slow  # draws every game's pages, and drives a headless browser

ARTIFACTS = Path(__file__).parent.parent / "artifacts"  # tests/artifacts
DATA_BLOCK = re.compile(r'<script type="application/json" id="view-data">(.*?)</script>', re.S)


def write_transcript(tmp_path, game: str, players: int, seed: int, name="t.jsonl", max_steps=None) -> Path:
    _, text = record_game(str(game), players, seed, max_steps=max_steps)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def view(*args) -> tuple:
    result = CliRunner().invoke(main, ["view", *map(str, args)])
    return result.exit_code, result.output


def page_data(html: str) -> dict:
    return json.loads(DATA_BLOCK.search(html).group(1))


def states(view_data: dict) -> list:
    """Every step's state of one view, rebuilt from the first state and the changes."""
    stored = view_data["states"]
    out = [stored[0]]
    for ops in stored[1:]:
        state = copy.deepcopy(out[-1])
        for op in ops:
            *path, last = op[0]
            at = state
            for key in path:
                at = at[key]
            if len(op) == 1:
                del at[last]
            else:
                at[last] = op[1]
        out.append(state)
    return out


@pytest.fixture
def secret_bid(tmp_path):
    return write_transcript(tmp_path, GAMES / "secret_bid.game", 2, 5)


# ---------------------------------------------------------------- the data
def test_changes_rebuild_every_state():
    a = {"players": [{"x": 1, "h": ["a"]}], "zones": {"deck": {"count": 3}, "gone": []}}
    b = {"players": [{"x": 2, "h": []}], "zones": {"deck": [], "new": [1]}}
    rebuilt = states({"states": [a, changes(a, b), changes(b, a)]})
    assert rebuilt == [a, b, a]


def test_everything_and_each_seat_by_default(secret_bid, tmp_path):
    code, out = view(secret_bid, "-o", tmp_path / "all.html")
    assert code == 0, out
    data = page_data((tmp_path / "all.html").read_text(encoding="utf-8"))
    assert [v["name"] for v in data["views"]] == ["everything", "seat 0", "seat 1"]
    everything = states(data["views"][0])
    assert any(isinstance(s["zones"]["hand/seat 1"], list) and s["zones"]["hand/seat 1"] for s in everything)
    steps = data["views"][0]["steps"]
    assert steps[0]["decision"] == "set-up" and steps[1]["decision"] == "bid"
    assert len(steps) == len(everything)


def test_as_seat_leaves_out_what_the_seat_could_not_see(secret_bid, tmp_path):
    out_path = tmp_path / "seat0.html"
    code, out = view(secret_bid, "--as-seat", 0, "-o", out_path)
    assert code == 0, out
    html = out_path.read_text(encoding="utf-8")
    data = page_data(html)
    assert [v["name"] for v in data["views"]] == ["seat 0"]
    seen = states(data["views"][0])
    for state in seen:
        assert set(state["zones"]["hand/seat 1"]) == {"count"}  # seat 1's hand: how many, never which
        assert set(state["zones"]["table/seat 1"]) == {"count"}
        assert state["players"][1]["last_bid"] == "?"
        assert "card_fields" not in state
    hidden = [e for e in data["views"][0]["steps"] if e["seat"] == 1]
    assert hidden and all(e["choice"] is None for e in hidden)  # seat 1's secret bids are sealed
    recorded = [json.loads(line) for line in secret_bid.read_text().splitlines()]
    for r in recorded:
        if r["type"] == "decision" and r["seat"] == 1:
            assert f'chose "{r["choice"]}" for bid' not in html


def test_game_text_cannot_break_out_of_the_page(tmp_path):
    game = tmp_path / "sly.game"
    game.write_text('game "</script><script>alert(1)</script>" players 2..2\n'
                    'rule flow() {\n  for p in players {\n    choose by p as "<!--<script>" {\n'
                    '      option "</script>x" { say "</script><b>x</b>" }\n      option "b" { }\n    }\n  }\n}\n',
                    encoding="utf-8")
    path = write_transcript(tmp_path, game, 2, 0)
    code, out = view(path, "-o", tmp_path / "sly.html")
    assert code == 0, out
    html = (tmp_path / "sly.html").read_text(encoding="utf-8")
    template = (ROOT / "ruledsl" / "play" / "view_template.html").read_text(encoding="utf-8")
    assert html.count("</script") == template.count("</script")
    assert html.count("<script") == template.count("<script")
    assert "innerHTML" not in template and "outerHTML" not in template and "insertAdjacentHTML" not in template
    assert page_data(html)["title"] == "</script><script>alert(1)</script>"


def test_the_default_output_is_beside_the_transcript(secret_bid):
    code, out = view(secret_bid)
    assert code == 0, out
    assert secret_bid.with_suffix(".html").exists()


@pytest.mark.parametrize("game, board, shape", [
    ("examples/tic_tac_toe.game", "grid", "grid"), ("games/mafialand.game", "city", "ring"),
    ("games/mafialand.game", "houses", "table"), ("games/bada_bing.game", "square", "ring")])
def test_boards_are_drawn_by_their_declarations(game, board, shape):
    drawn = {b["name"]: b for b in board_drawings(load_game(str(ROOT / game)))}[board]
    assert drawn["shape"] == shape
    places = [(s["x"], s["y"]) for s in drawn["spaces"]]
    assert len(set(places)) == len(places)  # no two spaces on one place
    if game.endswith("tic_tac_toe.game"):
        at = {s["name"]: (s["x"], s["y"]) for s in drawn["spaces"]}
        assert at["a1"] == (0, 0) and at["a3"] == (2, 0) and at["c1"] == (0, 2)  # col across, row down


@pytest.mark.parametrize("topology", ["", "graph"])  # a loop or line needs spaces (E318)
def test_a_board_of_no_spaces_draws_as_an_empty_table(tmp_path, topology):
    """Found looking for more after the fuzzer found an empty card set: both shapes failed on no spaces."""
    game = tmp_path / "empty.game"
    game.write_text(f'game "E" players 2..2\nboard b(row: int, col: int) {topology} {{\n'
                    '  each i in 1..0: space "s{i}" i i\n}\nrule flow() { say "hi" }\n')
    drawn = board_drawings(load_game(str(game)))
    assert drawn == [{"name": "b", "shape": "table", "topology": topology or None, "spaces": [], "links": []}]
    code, out = view(write_transcript(tmp_path, game, 2, 1))
    assert code == 0, out


def test_spaces_named_like_cells_make_a_grid():
    names = ["a1", "a2", "b1", "b2"]
    assert grid_coords(names, {s: {} for s in names}) == {"a1": (0, 1), "a2": (0, 0), "b1": (1, 1), "b2": (1, 0)}
    assert grid_coords(["start", "a1", "a2", "b1"], {s: {} for s in ["start", "a1", "a2", "b1"]}) is None


def test_a_graph_ring_puts_the_shortcuts_inside():
    drawn = {b["name"]: b for b in board_drawings(load_game(str(ROOT / "games" / "bada_bing.game")))}["square"]
    at = {s["name"]: (s["x"], s["y"]) for s in drawn["spaces"]}
    xs = [x for x, _ in at.values()]
    ys = [y for _, y in at.values()]
    for inner in ("overpass_a", "overpass_b"):
        x, y = at[inner]
        assert min(xs) < x < max(xs) and min(ys) < y < max(ys)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("make, expected", [
    (lambda p: p / "missing.jsonl", "cannot read"),
    (lambda p: (p / "bad.jsonl").write_text("{not json\n") and p / "bad.jsonl", "corrupt transcript"),
])
def test_bad_transcripts_get_a_message(tmp_path, make, expected):
    code, out = view(make(tmp_path))
    assert code == 1
    assert expected in out and "Traceback" not in out


def test_a_seat_out_of_range_gets_a_message(secret_bid):
    code, out = view(secret_bid, "--as-seat", 2)
    assert code == 1
    assert "--as-seat 2: the game has seats 0..1" in out and "Traceback" not in out


def test_the_exit_code_of_the_installed_command(tmp_path):
    run = run_process("view", tmp_path / "nope.jsonl")
    assert run.returncode == 1
    assert "nope.jsonl" in run.stderr and "Traceback" not in run.stderr


# ---------------------------------------------------------------- in a browser
def browser():
    """(chromium, chromedriver) paths, or None: the test is skipped only where they are missing."""
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                    None)
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


@pytest.fixture(scope="module")
def driver():
    found = browser()
    if found is None:
        pytest.skip("no Chromium (apt-get install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1000"):
        options.add_argument(arg)
    options.binary_location = found[0]
    d = webdriver.Chrome(service=Service(found[1]), options=options)
    yield d
    d.quit()


def open_page(driver, html: Path):
    driver.get(html.resolve().as_uri())
    return lambda css: driver.find_elements("css selector", css)


def test_stepping_through_a_game_in_a_browser(driver, secret_bid, tmp_path):
    html = tmp_path / "page.html"
    assert view(secret_bid, "-o", html)[0] == 0
    find = open_page(driver, html)
    assert driver.title.startswith("Secret bid")
    label = find("#step-label")[0]
    last = len(find("#decisions li")) - 1
    assert label.text == f"step 0 of {last}"
    find("#next")[0].click()
    find("#next")[0].click()
    assert label.text == f"step 2 of {last}"
    assert "seat 1" in find("#narration li")[0].text and "bid" in find("#narration li")[0].text
    find("#prev")[0].click()
    assert label.text == f"step 1 of {last}"
    box = find("#step-input")[0]
    box.clear()
    box.send_keys(str(last))
    find("#jump")[0].click()
    assert label.text == f"step {last} of {last}"
    assert "winners" in find("#result")[0].text
    assert find("#decisions li.current")[0].get_attribute("data-step") == str(last)
    find("#decisions li")[3].click()
    assert label.text == f"step 3 of {last}"
    save(driver, "secret_bid")


def test_a_seats_view_in_a_browser_hides_the_other_hand(driver, secret_bid, tmp_path):
    html = tmp_path / "seat0.html"
    assert view(secret_bid, "--as-seat", 0, "-o", html)[0] == 0
    find = open_page(driver, html)
    find("#next")[0].click()
    hands = [z for z in find("#players .player .zone") if z.text.startswith("hand")]
    assert len(hands) == 2  # seat 0's own hand and seat 1's, each in its seat's box
    assert hands[0].find_elements("css selector", ".card:not(.back)")
    assert not hands[0].find_elements("css selector", ".card.back")
    assert hands[1].find_elements("css selector", ".card.back")
    assert not hands[1].find_elements("css selector", ".card:not(.back)")
    driver.find_element("tag name", "body").send_keys("j")  # the keyboard: j is next
    assert find("#step-label")[0].text.startswith("step 2 ")


@pytest.mark.parametrize("game, players", [
    ("games/mafialand.game", 3), ("games/bada_bing.game", 3), ("games/the_boss.game", 3),
    ("games/mafia_dollar.game", 3), ("games/road_to_infamy.game", 3), ("examples/tic_tac_toe.game", 2),
    ("examples/pig.game", 2), ("examples/goofspiel.game", 2), ("examples/kuhn_poker.game", 2)])
def test_every_game_draws(driver, tmp_path, game, players):
    path = write_transcript(tmp_path, ROOT / game, players, 3, max_steps=40)
    html = tmp_path / "page.html"
    assert view(path, "-o", html)[0] == 0
    find = open_page(driver, html)
    for _ in range(min(6, len(find("#decisions li")) - 1)):
        find("#next")[0].click()
    assert len(find("#players .player")) == players
    drawn = page_data(html.read_text(encoding="utf-8"))["boards"]
    assert len(find("#boards .board")) == len(drawn)
    for board in drawn:
        assert len(find(f'#boards .board[data-board="{board["name"]}"] g.space')) == len(board["spaces"])
    too_wide = driver.execute_script(
        "return [...document.querySelectorAll('#boards g.space')].filter((g) => "
        "g.querySelector('text').getBBox().width > g.querySelector('rect').getBBox().width + 0.5)"
        ".map((g) => g.dataset.space)")
    assert too_wide == []  # every space's name fits in its cell
    assert driver.get_log("browser") == []  # no script errors
    save(driver, Path(game).stem)


def save(driver, name: str):
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"view_{name}.png"))
