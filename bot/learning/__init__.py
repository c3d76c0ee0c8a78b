"""Learning the games: the illustrated guide of ``/rules`` (:mod:`bot.learning.guide`),
the AI's analysis of finished games (:mod:`bot.learning.analysis`) and the private
sandbox of Explore (:mod:`bot.learning.sandbox`)."""
