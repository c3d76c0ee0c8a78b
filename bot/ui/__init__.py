"""The Discord side shared by every area: who and where an interaction comes from,
the services it reaches, and the options several commands take."""
