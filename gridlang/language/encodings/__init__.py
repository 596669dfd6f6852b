"""pzprjs's shared URL encodings, the vocabulary of the ``format`` statement: each decode and encode, their table and places."""
