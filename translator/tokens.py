"""The special tokens and their ids: what the text pipeline writes, and what the masks and the loss skip.

`TextVectorization` puts padding at id 0 and `[UNK]` at id 1 of every
vocabulary; `[start]` and `[end]` are ordinary entries of the Spanish one.
"""

PAD, UNK, START, END = "", "[UNK]", "[start]", "[end]"
PAD_ID, UNK_ID = 0, 1
