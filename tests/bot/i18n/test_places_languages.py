"""The #29 places in the #30 languages: a seek's card in each lobby speaks that
server's language (open and closed), a game of the DMs speaks its players' language,
and a tournament's thread its server's."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import places, texts
from bot.i18n import catalogues_from, current_locale, speaking
from bot.i18n.languages import Languages, dm_language
from bot.seeks import texts as seek_texts
from tests.bot.conftest import ANA, BO, CHANNEL, GUILD, OTHER_GUILD, Env
from tests.bot.fakes import FakePoster
from tests.bot.i18n.test_speaking import catalogue
from tests.bot.seeks.test_service import OTHER_LOBBY, everywhere, seeks, with_lobbies

FRENCH = {
    "🔎 **Seek {seek}.**\\n{name} is looking for an opponent from any server: press "
    "**Accept** to play (the game starts in a server you both share with me, else in your "
    "DMs). Open until {moment}.": "🔎 **Recherche {seek}.**\\n"
    "{name} cherche un adversaire (jusqu'à {moment}).",
    "Taken by {name}: {game}.": "Prise par {name} : {game}.",
    "rated": "classée",
}
GERMAN = {
    "🔎 **Seek {seek}.**\\n{name} is looking for an opponent from any server: press "
    "**Accept** to play (the game starts in a server you both share with me, else in your "
    "DMs). Open until {moment}.": "🔎 **Gesuch {seek}.**\\n"
    "{name} sucht einen Gegner (bis {moment}).",
    "Taken by {name}: {game}.": "Angenommen von {name}: {game}.",
    "rated": "gewertet",
    "Seek #{number} was already taken by {name}.": "Gesuch #{number} wurde schon von {name} "
    "angenommen.",
}


@pytest.fixture
def spoken(tmp_path: Path):
    catalogue(tmp_path, "fr", FRENCH)
    catalogue(tmp_path, "de", GERMAN)
    with catalogues_from(tmp_path):
        yield


async def test_each_lobby_card_speaks_its_servers_language(env: Env, spoken: None) -> None:
    languages = env.services.get(Languages)
    await languages.guild_seen(GUILD, "fr")
    await languages.guild_seen(OTHER_GUILD, "de")
    await with_lobbies(env)
    with speaking("ja"):  # the seeker's own language is not the lobbies'
        made, _lobbies = await seeks(env).create(
            seeker=ANA, game="lifeline", guild_id=GUILD, channel_id=CHANNEL
        )
    assert isinstance(env.poster, FakePoster)
    cards = {s.where: s.post.content for s in env.poster.sent if s.post.actions}
    french = next(c for where, c in cards.items() if where != OTHER_LOBBY)
    assert french.startswith("🔎 **Recherche #") and "classée" in french, cards
    assert cards[OTHER_LOBBY].startswith("🔎 **Gesuch #") and "gewertet" in cards[OTHER_LOBBY]

    with speaking("de"):  # Bo takes it in German: his answers are his, the cards their own
        game = await seeks(env).accept(
            seek_id=made.id, member=BO, shares=everywhere(), here=OTHER_GUILD
        )
        with pytest.raises(Exception) as late:
            await seeks(env).accept(seek_id=made.id, member=BO, shares=everywhere())
    assert "wurde schon von Bo angenommen" in str(late.value)
    closed = [text for cid, text, _ in env.poster.shown if cid == -made.id]
    assert any(f"Prise par Bo : {texts.label(game)}" in t for t in closed), closed
    assert any(f"Angenommen von Bo: {texts.label(game)}" in t for t in closed), closed
    assert current_locale() == "en"  # nothing leaked out of the blocks


async def test_a_game_of_the_dms_speaks_its_players_language(env: Env) -> None:
    languages = env.services.get(Languages)
    assert dm_language([ANA.id, BO.id]) == "en"  # neither known yet
    await languages.member_seen(BO.id, "pt-BR")
    assert dm_language([ANA.id, BO.id]) == "pt_BR"  # the one known
    await languages.member_seen(ANA.id, "ja")
    assert dm_language([ANA.id, BO.id]) == "ja"  # the first player's, when they differ
    assert await languages.of_member(BO.id) == "pt_BR"  # each player's own DMs stay theirs
    row = await _dm_game(env)
    with texts.in_thread(row):
        assert current_locale() == "ja"
    await languages.choose(ANA.id, None)  # a new choice is read again at the next use
    assert dm_language([ANA.id, BO.id]) == "pt_BR"


async def _dm_game(env: Env):
    made, _lobbies = await seeks(env).create(
        seeker=ANA, game="lifeline", guild_id=GUILD, channel_id=CHANNEL
    )
    game = await seeks(env).accept(seek_id=made.id, member=BO, shares=_apart())
    assert game.guild_id == places.DMS
    return game


def _apart():
    from tests.bot.seeks.test_service import Servers

    return Servers(**{f"g{GUILD}": {ANA.id}, f"g{OTHER_GUILD}": {BO.id}})


def test_the_dm_text_of_a_seek_is_worded_in_the_current_language(tmp_path: Path) -> None:
    catalogue(tmp_path, "de", {"Bots can't play.": "Bots spielen nicht."})
    with catalogues_from(tmp_path), speaking("de"):
        from bot.i18n import _

        assert _(seek_texts.BOTS) == "Bots spielen nicht."


async def test_a_tournaments_thread_speaks_its_servers_language(env: Env, tmp_path: Path) -> None:
    from datetime import timedelta

    from tests.bot.competitions.test_service import GAME, ORGANISER, PLAYERS
    from tests.bot.conftest import SMALL

    catalogue(
        tmp_path,
        "fr",
        {
            "{name} joined ({count}).": "{name} s'est inscrit ({count}).",
            "{count} of {most} places taken": "{count} places prises sur {most}",
        },
    )
    await env.services.get(Languages).guild_seen(GUILD, "fr")
    tournaments = env.app.tournaments
    with catalogues_from(tmp_path):
        made = await tournaments.create(
            guild_id=GUILD,
            channel_id=CHANNEL,
            organiser=ORGANISER,
            name="Coupe",
            format="knockout",
            game=GAME,
            options=SMALL[GAME],
            starts_at=env.clock() + timedelta(days=1),
            min_players=4,
            max_players=4,
        )
        with speaking("de"):  # the member's own language is not the thread's
            await tournaments.join(guild_id=GUILD, tournament_id=made.id, member=PLAYERS[0])
    said = [p.content for p in env.poster.posts_for(-made.id)[1:]]
    assert said == ["P0 s'est inscrit (1 places prises sur 4)."]
