import os

from hypothesis import HealthCheck, settings

# Property tests play whole random games: no per-example deadline, and a
# bounded number of examples so that CI stays within minutes on two cores.
settings.register_profile(
    "ci", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
