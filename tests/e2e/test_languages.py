"""Languages as members meet them in Discord (issue 30): in a server whose language is
French, a member whose Discord speaks German gets her own answers and refusals in
German while the game's thread speaks French to everyone; the commands Discord shows
carry every language's names. The words are the shipped catalogues' German and
French, so the test reads what it expects from them."""

from __future__ import annotations

from bot.i18n import catalogues
from tests.fakediscord.process import BotProcess

from .conftest import World
from .driver import WAIT, start_game


def worded(locale: str, english: str) -> str:
    """``english`` as the shipped catalogue of ``locale`` words it (it must)."""
    text = catalogues().text(locale, english)
    assert text != english, f"the {locale} catalogue has no {english!r}"
    return text


async def test_a_german_member_in_a_french_server(world: World, botproc: BotProcess) -> None:
    fake, alice, bob = world.fake, world.alice, world.bob
    world.guild.locale = "fr"
    alice.user.locale = "de"
    # the commands come with their names in every language
    move = next(c for c in fake.commands_for(world.guild) if c["name"] == "move")
    assert (move["name_localizations"]["de"], move["name_localizations"]["fr"]) == (
        "zug",
        "jouer",
    )

    table = await start_game(fake, world.channel, alice, bob, "astralis", {"size": 7})
    mark = fake.mark()
    ix = await fake.run_command(alice, "move", {"move": "a6"}, channel=table.thread)
    answer = await ix.reply(WAIT)
    # her own answer, in German, privately
    played = worded("de", "You played `{move}` in {game}.")
    assert answer.ephemeral
    assert answer.content.startswith(played.split("{game}")[0].format(move="a6")), answer.content
    # the thread's post, in French, for everyone
    post = await table.next_post(mark)
    head = worded("fr", "**{game}** · move {number}").format(game="Astralis #1", number=1)
    line = worded("fr", "{head}: {name} played `{move}`").split("{name}")[1].format(move="a6")
    assert post.content.startswith(head) and line in post.content, post.content
    assert not post.ephemeral
    table.state = table.state.play("a6")
    # out of turn: refused in German, privately
    ix = await fake.run_command(alice, "move", {"move": "b2"}, channel=table.thread)
    refused = await ix.reply(WAIT)
    waiting = worded("de", "It's not your turn in {game}: waiting for {name}.")
    assert refused.ephemeral
    assert refused.content == waiting.format(game="Astralis #1", name="Bob"), refused.content
