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
