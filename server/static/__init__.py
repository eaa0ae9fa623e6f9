"""Files the HTTP side serves as they are: the example page (`index.html`)."""
