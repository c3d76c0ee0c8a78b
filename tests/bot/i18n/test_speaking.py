"""Who is spoken to in which language, end to end through the services: a German
member in a French server gets their refusals in German while the game's thread
speaks French, and a Japanese member's turn notice (a DM) is in Japanese."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.i18n import catalogues_from, speaking
from bot.i18n.languages import Languages
from bot.model import UserError
from tests.bot.conftest import ANA, BO, GUILD, Env, start_game

HEADER = (
    'msgid ""\nmsgstr ""\n"Language: {code}"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
)

FRENCH = {
    "{game} · {first} vs {second}": "{game} · {first} contre {second}",
    "**{game}** · move {number}": "**{game}** · coup {number}",
    "{head}: {name} played `{move}`": "{head}: {name} a joué `{move}`",
    "{member}, your turn: {prompt}.": "{member}, à toi de jouer: {prompt}.",
    "place a stone": "pose une pierre",
}
GERMAN = {
    "It's not your turn in {game}: waiting for {name}.": "Du bist in {game} nicht am Zug: "
    "es wartet {name}.",
    "`{move}` can't be played: {why}.": "`{move}` kann nicht gespielt werden: {why}.",
    "{cell} is occupied": "{cell} ist besetzt",
}
JAPANESE = {
    "Your turn in **{game}** against {name}: {prompt}. {url}": "**{game}**（{name} と対局中）"
    "であなたの手番です：{prompt}。{url}",
    "place a stone": "石を置く",
}


def catalogue(folder: Path, code: str, texts: dict[str, str]) -> None:
    body = HEADER.replace("{code}", code + "\\n") + "".join(
        f'msgid "{english}"\nmsgstr "{said}"\n\n' for english, said in texts.items()
    )
    (folder / code).mkdir()
    (folder / code / "messages.po").write_text(body, encoding="utf-8")


@pytest.fixture
def spoken(tmp_path: Path):
    catalogue(tmp_path, "fr", FRENCH)
    catalogue(tmp_path, "de", GERMAN)
    catalogue(tmp_path, "ja", JAPANESE)
    with catalogues_from(tmp_path):
        yield


async def test_a_german_member_in_a_french_server(env: Env, spoken: None) -> None:
    languages = env.services.get(Languages)
    await languages.guild_seen(GUILD, "fr")
    assert await languages.member_seen(ANA.id, "de") == "de"
    with speaking("de"):  # as the interaction's dispatch sets it for Ana
        game_id = await start_game(env, "sliglube", size=5)
    # the thread and its posts are for everyone in the French server
    assert any("contre" in name for name in env.poster.threads.values())
    with speaking("de"):
        await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="c3")
        with pytest.raises(UserError) as refused:  # Bo chose his colour: it is Bo's turn
            await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="d4")
    posts = [post.content for post in env.poster.posts_for(game_id)]
    assert any("a joué `c3`" in content for content in posts), posts
    assert "nicht am Zug" in refused.value.message
    with speaking("de"):
        await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=BO, text="black")
        with pytest.raises(UserError) as occupied:
            await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="c3")
    assert occupied.value.message == "`c3` kann nicht gespielt werden: c3 ist besetzt."


async def test_a_turn_notice_by_dm_is_in_the_members_last_language(env: Env, spoken) -> None:
    """Bo asked for DMs and last used Discord in Japanese; his DMs are closed (this
    environment's messenger), so the notice comes as a mention in the thread, still in
    his words."""
    languages = env.services.get(Languages)
    await languages.guild_seen(GUILD, "fr")
    await languages.member_seen(BO.id, "ja")
    await env.notifier.set_preference(BO.id, "dm")
    game_id = await start_game(env, "sliglube", size=5)
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="c3")
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=BO, text="black")
    await env.moves.play_move(guild_id=GUILD, game_id=game_id, member=ANA, text="d4")
    posts = [post.content for post in env.poster.posts_for(game_id)]
    assert any("であなたの手番です：石を置く" in content for content in posts), posts


async def test_an_interaction_is_answered_in_its_members_language(env: Env, spoken) -> None:
    """The dispatch's language: the member's /settings choice, else their Discord's; the
    server's locale remembered on the way (for its threads), an unknown one English."""
    from types import SimpleNamespace

    from discord import Locale

    from bot.i18n import current_locale
    from bot.i18n.languages import guild_language
    from bot.ui.context import answer_locale, answering

    def interaction(member_id: int, locale: Locale, guild_locale: Locale | None) -> Any:
        return SimpleNamespace(
            client=SimpleNamespace(services=env.services),
            user=SimpleNamespace(id=member_id),
            guild_id=GUILD,
            locale=locale,
            guild_locale=guild_locale,
        )

    assert await answer_locale(interaction(ANA.id, Locale.german, Locale.french)) == "de"
    assert guild_language(GUILD) == "fr"
    async with answering(interaction(BO.id, Locale.korean, Locale.french)):
        assert current_locale() == "en"  # no Korean catalogue
    await env.services.get(Languages).choose(BO.id, "pt_BR")
    async with answering(interaction(BO.id, Locale.korean, None)):
        assert current_locale() == "pt_BR"
    assert current_locale() == "en"


def test_the_tools_refuse_what_they_do_not_know() -> None:
    from bot.i18n.__main__ import main

    assert main(["missing", "xx"]) == 2
    assert main(["translate"]) == 2
    assert main([]) == 2
