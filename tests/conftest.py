import os

from hypothesis import HealthCheck, settings

# Property tests play whole random games: no per-example deadline, and a
# bounded number of examples so that the suite stays within minutes on two cores.
#
# "ci" (the default, and what CI=true selects) is derandomised: every run tries
# the same examples, so a result on one machine is the result on every machine
# and the suite's time does not vary from run to run. "explore" draws new
# examples on every run, and "thorough" many more of them: use either
# (HYPOTHESIS_PROFILE=explore) to hunt for bugs the fixed examples miss.
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=40, derandomize=True, database=None, **_COMMON)
settings.register_profile("explore", max_examples=40, **_COMMON)
settings.register_profile("thorough", max_examples=500, **_COMMON)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "ci")  # CI=true runs: "ci"


# -- the two storage backends ---------------------------------------------------------
#
# A test that asks for ``database_url`` (the bot's tests do, through their ``env``) runs
# on SQLite; marked ``both_backends`` (a module's ``pytestmark``, say), it runs on
# PostgreSQL too, against a real server this run starts (tests/postgres.py).

import pytest  # noqa: E402

from tests import postgres  # noqa: E402

BACKENDS = ("sqlite", "postgresql")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_backends: run the test on SQLite and on PostgreSQL")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if (
        "backend" in metafunc.fixturenames
        and metafunc.definition.get_closest_marker("both_backends") is not None
    ):
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite``, or what ``both_backends`` asks for."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgres_server():
    """The run's PostgreSQL server (skips the test where none can start)."""
    server = postgres.start()
    if isinstance(server, str):
        pytest.skip(server)
    why_not = postgres.reachable(server)
    if why_not is not None:
        server.stop()
        pytest.skip(why_not)
    yield server
    server.stop()


@pytest.fixture
async def database_url(backend: str, request: pytest.FixtureRequest, tmp_path):
    """Where the test's database is: a SQLite file in its folder, or a new PostgreSQL
    database (both empty until the bot opens them)."""
    if backend == "sqlite":
        return tmp_path / "boardbot.sqlite3"
    server = request.getfixturevalue("postgres_server")
    return await server.fresh()
