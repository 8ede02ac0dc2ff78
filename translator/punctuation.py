"""The punctuation that ends a sentence or opens one, for the code that cuts text into sentences
(`translator.segments`) and the code that capitalises sentence starts (`translator.text`).

Each is a string of characters, ready to go inside a regular expression's `[...]`.
"""

SENTENCE_END = ".!?…"
SENTENCE_OPEN = "¿¡\"«("
