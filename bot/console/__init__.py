"""The console transport: a local game in a terminal, on the text commands shared with
e-mail (`bot.commands`) and the text board (`bot.textboard`)."""
