"""Rendering is pure: a table's or a record's plain values in, text and buttons out.

- `views`: the plain values every screen is drawn from (`TableView`, `Screen`, ...);
- `table`: the table message in each of its states;
- `cards`: a player's own cards, his reminder and the toast after his press;
- `messages`: results, a moved chat, the links and buttons to the Mini App;
- `history`: /history, /hand with its proof, the statement, /top and /stats.
"""
