# cmake -DDISPATCHCTL=BIN -DOUTPUT=FILE -DVERSION=V -P manpage.cmake
# Writes dispatchctl(1) from the binary's own --help texts (the main one and
# every subcommand's, recursively), so the man page never drifts from them.

function(escape_roff text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  # A line starting with . or ' would be a roff request.
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" text "\n${text}")
  string(SUBSTRING "${text}" 1 -1 text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(help_of command out)
  execute_process(COMMAND ${DISPATCHCTL} ${command} --help
                  OUTPUT_VARIABLE text RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dispatchctl ${command} --help failed (${rc})")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(subcommands_of help out)
  string(FIND "${help}" "\nSubcommands:\n" at)
  set(names)
  if(NOT at EQUAL -1)
    string(SUBSTRING "${help}" ${at} -1 section)
    string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" lines "${section}")
    foreach(line ${lines})
      string(STRIP "${line}" name)
      list(APPEND names ${name})
    endforeach()
  endif()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

set(page ".TH DISPATCHCTL 1 \"\" \"dispatchctl ${VERSION}\" \"User Commands\"
.SH NAME
dispatchctl \\- inspect PyTorch dispatch tables: which kernel runs for which dispatch key, and why
.SH SYNOPSIS
.B dispatchctl
[\\fB\\-v\\fR | \\fB\\-q\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]
.SH DESCRIPTION
")
help_of("" main_help)
escape_roff("${main_help}" text)
string(APPEND page ".nf\n${text}.fi\n.SH COMMANDS\n")

subcommands_of("${main_help}" queue)
while(queue)
  list(POP_FRONT queue command)
  string(REPLACE ";" " " command_text "${command}")
  separate_arguments(argv UNIX_COMMAND "${command_text}")
  execute_process(COMMAND ${DISPATCHCTL} ${argv} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dispatchctl ${command_text} --help failed (${rc})")
  endif()
  escape_roff("${help}" text)
  string(APPEND page ".SS \"dispatchctl ${command_text}\"\n.nf\n${text}.fi\n")
  subcommands_of("${help}" nested)
  foreach(sub ${nested})
    list(APPEND queue "${command_text} ${sub}")
  endforeach()
endwhile()

string(APPEND page ".SH EXIT STATUS
0 success; 1 findings, differences, a \"no\" answer or a call that would raise; 2 bad usage or bad input
(one line on standard error naming the file, the location and a fix);
3 an internal error of dispatchctl (one line asking for a report).
.SH ENVIRONMENT
.TP
.B COLUMNS
Width text output wraps at (40 to 1000), before the terminal's width; without either, 80.
Machine formats (json, torch\\-table, torch\\-state) never wrap.
.TP
.B NO_COLOR
When set and not empty, output is never coloured (colour is only used on a terminal anyway).
.TP
.B XDG_CACHE_HOME
Where \\fB\\-m python\\fR caches exports: \\fI$XDG_CACHE_HOME/dispatchctl\\fR, else
\\fI$HOME/.cache/dispatchctl\\fR. When it cannot be written, one warning and the export runs
in a temporary folder under \\fBTMPDIR\\fR (default \\fI/tmp\\fR), on every run.
.TP
.B PYTHONPATH\\fR, \\fBPYTHONHOME\\fR, \\fBPYTHONUSERBASE\\fR, \\fBPYTHONNOUSERSITE\\fR, \\fBPYTHONSAFEPATH\\fR, \\fBHOME
Part of the \\fB\\-m python\\fR cache key (they change which torch is imported); so is the
current directory with \\fB?import=\\fR.
.SH FILES
.TP
.I dispatchctl.json
Configuration of \\fBdispatchctl check\\fR, read from the current directory.
.TP
.I $XDG_CACHE_HOME/dispatchctl/
The \\fB\\-m python\\fR cache: \\fIexport\\-*.json\\fR (one per torch, imported modules and
recorded dumps or not), \\fIlocator\\-*.txt\\fR (what was probed, so a cached run starts no
interpreter) and the exporter script. Safe to remove at any time.
.TP
.I share/dispatchctl/schemas/
JSON Schemas of every \\fB\\-\\-format json\\fR output and of manifests.
.SH SEE ALSO
\\fBdispatchctl\\-export\\fR (writes a manifest of a live PyTorch's registry),
the README of the dispatchctl source tree.
")
file(WRITE "${OUTPUT}" "${page}")
