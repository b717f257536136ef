"""One protocol module per paper; each returns tidy pandas DataFrames."""
