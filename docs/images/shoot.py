"""Makes docs/images/view_<game>.png: each game played with a seed, written by
`ruledsl view`, opened in headless Chromium (selenium) at a step, photographed.

    python docs/images/shoot.py        # from the repository root; needs chromium, chromedriver
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SHOTS = [  # game, players, seed, step shown
    ("games/mafialand.game", 3, 7, 25), ("games/bada_bing.game", 3, 2, 40), ("games/the_boss.game", 3, 1, 30),
    ("games/mafia_dollar.game", 3, 1, 60), ("games/road_to_infamy.game", 3, 1, 30),
    ("examples/tic_tac_toe.game", 2, 3, 7), ("examples/pig.game", 2, 1, 12), ("examples/goofspiel.game", 2, 1, 10),
    ("examples/kuhn_poker.game", 2, 4, 2),
]


def browser():
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,900",
                "--force-device-scale-factor=0.75", "--hide-scrollbars"):
        options.add_argument(arg)
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def main():
    driver = browser()
    with tempfile.TemporaryDirectory() as tmp:
        for game, players, seed, step in SHOTS:
            name = Path(game).stem
            record, page = Path(tmp) / f"{name}.jsonl", Path(tmp) / f"{name}.html"
            subprocess.run(["ruledsl", "play", game, "--players", str(players), "--seed", str(seed),
                            "--record", str(record)], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            subprocess.run(["ruledsl", "view", str(record), "-o", str(page)], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
            driver.get(page.as_uri())
            box = driver.find_element("id", "step-input")
            box.clear()
            box.send_keys(str(step))
            driver.find_element("id", "jump").click()
            driver.save_screenshot(str(HERE / f"view_{name}.png"))
            print(name, driver.find_element("id", "step-label").text)
    driver.quit()


if __name__ == "__main__":
    main()
