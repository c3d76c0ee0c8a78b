"""``/rules``: a private, illustrated guide per game, whose ◀ ▶ and page list keep
working after a restart (they carry the game and the page); a link to the full rules
only when the operator set RULES_URL_BASE."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

import render
import rules
from bot.config import Settings
from bot.core.members import MemberSettings
from bot.learning.commands import LearningCommands
from bot.learning.guide import guide_for, guides
from bot.services import Services
from rules.testing import registry_restored
from tests.bot.conftest import ANA, CY
from tests.bot.interactions import invoke
from tests.bot.learning.support import Reader, click
from tests.render.helpers import near
from tests.tictactoe import TicTacToe

FOUR = ("asli", "lifeline", "sliglube", "astralis")


class Themes:
    """Every member's theme is dark but for those named light."""

    def __init__(self, *light: int) -> None:
        self.light = light

    async def theme(self, member_id: int, *, private: bool = True) -> str:
        return "light" if private and member_id in self.light else "dark"


def app(url: str = "", *light: int) -> Any:
    found = Services(Settings(rules_url_base=url))
    found.add(Themes(*light), kind=MemberSettings)
    return SimpleNamespace(services=found)


async def open_guide(game: str, url: str = "", page: int = 1) -> Reader:
    reader = Reader(app(url), CY)
    await invoke(LearningCommands.rules, LearningCommands(), reader, game, page)
    return reader


def buttons(answer: dict[str, Any]) -> list[tuple[str, bool]]:
    return [
        (child.custom_id, getattr(getattr(child, "item", child), "disabled", False))
        for child in answer["view"].children
    ]


def picture(reader: Reader) -> Image.Image:
    name, data = reader.file()
    assert name.endswith(".png")
    return Image.open(io.BytesIO(data))


async def test_rules_opens_the_first_page_privately_with_its_diagram() -> None:
    reader = await open_guide("lifeline")
    answer = reader.answer
    assert answer["ephemeral"] is True
    embed = answer["embed"]
    assert embed.title == "Lifeline: The goal" and embed.url is None  # no link by default
    assert "The last player to place a stone wins" in embed.description
    assert embed.image.url == "attachment://lifeline-goal.png"
    assert "White has no stones left" in embed.fields[0].value
    assert embed.footer.text == (
        "Page 1 of 6 · Lifeline by Michael Amundsen & Luis Bolaños Mures, 2022"
    )
    assert picture(reader).width > 400
    assert buttons(answer) == [
        ("bb:guide:lifeline:0", True),
        ("bb:guide:lifeline:1", False),
        ("bb:guidejump:lifeline", False),
    ]


async def test_the_diagram_is_drawn_in_the_readers_theme() -> None:
    dark = await open_guide("astralis")
    light = Reader(app("", CY.id), CY)
    await invoke(LearningCommands.rules, LearningCommands(), light, "astralis", 1)
    background = render.colors("astralis", "light").background

    def corner(reader: Reader) -> tuple[int, ...]:
        return picture(reader).convert("RGB").getpixel((2, 2))

    assert near(corner(light), background) and not near(corner(dark), background)
    turned = await click(app("", CY.id), CY, "bb:guide:astralis:1")
    assert near(corner(turned), background)


async def test_a_link_only_when_the_operator_gives_one() -> None:
    reader = await open_guide("asli", url="https://example.org/rules")
    assert reader.answer["embed"].url == "https://example.org/rules/asli.md"


async def test_the_arrows_turn_the_readers_copy_after_a_restart() -> None:
    first = await open_guide("sliglube")
    [_, forward, _] = first.answer["view"].children
    turned = await click(app(), CY, forward.custom_id)  # rebuilt from its custom_id alone
    [(_, _), (kind, edit)] = turned.calls
    assert kind == "edit" and edit["embed"].title == "Sliglube: Loops and control"
    assert [a.filename for a in edit["attachments"]] == ["sliglube-loops.png"]
    assert buttons(edit)[:2] == [("bb:guide:sliglube:0", False), ("bb:guide:sliglube:2", False)]
    back = await click(app(), CY, buttons(edit)[0][0])
    assert back.answer["embed"].title == "Sliglube: The goal: stalemate wins"


async def test_the_page_list_and_the_last_page() -> None:
    guide = guide_for("astralis")
    last = len(guide.pages) - 1
    jumped = await click(app(), ANA, "bb:guidejump:astralis", values=[str(last)])
    answer = jumped.answer
    assert answer["embed"].title == "Astralis: Playing it here"
    assert "attachments" in answer and answer["attachments"] == []  # no diagram there
    assert [f.name for f in answer["embed"].fields] == ["Options for /challenge"]
    assert "size: 7–8 (default 8)" in answer["embed"].fields[0].value
    assert buttons(answer)[1] == (f"bb:guide:astralis:{last}", True)  # ▶ stops at the end


async def test_a_public_copy_gives_the_clicker_a_private_one() -> None:
    clicked = await click(app(), ANA, "bb:guide:asli:2", ephemeral=False)
    [(kind, sent)] = clicked.calls
    assert kind == "send_message" and sent["ephemeral"] is True
    assert sent["embed"].title == "Asli: A turn"


@pytest.mark.parametrize("custom_id", ["bb:guide:asli:999", "bb:guidejump:asli"])
async def test_a_page_past_the_end_shows_the_last(custom_id: str) -> None:
    clicked = await click(app(), ANA, custom_id, values=["999"])
    assert clicked.answer["embed"].title == "Asli: Playing it here"


async def test_a_guide_of_a_game_gone_is_out_of_date() -> None:
    clicked = await click(app(), ANA, "bb:guide:chess:1")
    assert "out of date" in clicked.answer["content"]


@pytest.mark.parametrize("game", FOUR)
def test_every_page_fits_discord(game: str) -> None:
    guide = guide_for(game)
    assert 5 <= len(guide.pages) <= 25
    assert len({page.key for page in guide.pages}) == len(guide.pages)
    for page in guide.pages:
        assert len(f"{guide.title}: {page.title}") <= 256 and len(page.text) <= 4000
        assert page.diagram is None or len(page.diagram.caption) <= 1024


class Unguided(TicTacToe):
    """Tic-tac-toe declaring no guide."""

    plugins = rules.Plugins()


async def test_a_game_without_a_guide_gets_a_page_of_its_summary() -> None:
    with registry_restored():
        rules.register(Unguided())
        [page] = guide_for("tictactoe").pages
        assert page.title == "Tic-tac-toe" and page.diagram is None
        assert page.text == TicTacToe.summary
        assert [guide.game for guide in guides()] == [*rules.GAMES]
        reader = await open_guide("tictactoe")
        assert reader.answer["embed"].title == "Tic-tac-toe: Tic-tac-toe"
        assert buttons(reader.answer) == []


def _diagrams() -> list[Any]:
    return [
        pytest.param(guide.game, page, id=f"{guide.game}-{page.key}")
        for guide in guides()
        for page in guide.pages
        if page.diagram is not None and page.diagram.highlight
    ]


@pytest.mark.parametrize(("game", "page"), _diagrams())
def test_a_diagrams_red_rings_say_what_they_mark_in_its_legend(game: str, page: Any) -> None:
    """The rings mean different things on different pages: each diagram's picture
    says what its own ring, in its legend."""
    from bot.pictures import diagram_marks

    diagram = page.diagram
    assert diagram.ringed, page.key
    state = diagram.state(game)
    said = " ".join(render.caption_text(state, marks=diagram.hints, extra=diagram_marks(diagram)))
    assert diagram.ringed in said, (page.key, said)
