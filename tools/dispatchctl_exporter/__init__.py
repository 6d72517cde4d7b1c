"""The modules of tools/dispatchctl-export.py, split by what they read or write.

Run the exporter as `python3 tools/dispatchctl-export.py`; the build inlines
these modules into that script (cmake/inline_exporter.cmake) to make the one
file dispatchctl embeds and installs. This file is not part of it.
"""
