# cmake -P script (cmake/manpage.cmake runs it): the man page of MMSIM from its own help. It runs
# `MMSIM --help`, then `MMSIM CMD --help` for every command listed there and `MMSIM CMD SUB --help`
# for every subcommand of those (the algorithms of `mmsim run`), and writes each help verbatim in
# troff, gzip-compressed as Debian installs man pages. Inputs: MMSIM, OUTPUT (name.1.gz), VERSION.

# help_of(VAR ARGS...): the text `MMSIM ARGS... --help` prints.
function(help_of var)
  execute_process(COMMAND ${MMSIM} ${ARGN} --help OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "mmsim ${ARGN} --help failed (${rc}): ${err}")
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# subcommands_of(VAR TEXT): the names CLI11 lists under "Subcommands:" in a help text.
function(subcommands_of var text)
  set(names "")
  string(FIND "${text}" "\nSubcommands:\n" at)
  if(at GREATER -1)
    string(SUBSTRING "${text}" ${at} -1 rest)
    string(REGEX MATCHALL "\n  [a-z0-9][a-z0-9_-]*" lines "${rest}")
    foreach(line IN LISTS lines)
      string(STRIP "${line}" name)
      list(APPEND names ${name})
    endforeach()
  endif()
  set(${var} "${names}" PARENT_SCOPE)
endfunction()

# troff(VAR TEXT): TEXT safe to print literally: backslashes escaped, "-" as \- so that options
# copied from the page are typed with a real hyphen-minus, and no line read as a request.
function(troff var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# section(VAR TITLE HELP): a subsection holding one help text as preformatted lines.
function(section var title help)
  troff(title "${title}")
  troff(body "${help}")
  string(STRIP "${body}" body)
  set(${var} "${${var}}.SS \"${title}\"\n.nf\n${body}\n.fi\n" PARENT_SCOPE)
endfunction()

help_of(main)
string(REGEX MATCH "^[^\n]*" first_line "${main}")
string(REGEX REPLACE "^mmsim: " "" summary "${first_line}")
troff(summary "${summary}")
troff(version "mmsim ${VERSION}")
string(FIND "${main}" "\nOptions:" at)
string(SUBSTRING "${main}" ${at} -1 options)
troff(options "${options}")
string(STRIP "${options}" options)

set(commands "")
set(algorithms "")
subcommands_of(names "${main}")
foreach(cmd IN LISTS names)
  help_of(help ${cmd})
  section(commands "mmsim ${cmd}" "${help}")
  subcommands_of(subs "${help}")
  foreach(sub IN LISTS subs)
    help_of(subhelp ${cmd} ${sub})
    section(algorithms "mmsim ${cmd} ${sub}" "${subhelp}")
  endforeach()
endforeach()

set(page ".TH MMSIM 1 \"\" \"${version}\" \"User Commands\"
.nh
.SH NAME
mmsim \\- ${summary}
.SH SYNOPSIS
.B mmsim
\\fICOMMAND\\fR [\\fIOPTIONS\\fR]
.br
.B mmsim run
\\fIALGORITHM\\fR [\\fIOPTIONS\\fR]
.SH DESCRIPTION
mmsim runs algorithms as SIMT programs on a cycle\\-level model of Nakano's memory machines (the
Discrete, Unified and Hierarchical Memory Machines), really moves their data, checks the output
cell by cell, and reports congestion and time units. Every command takes \\fB\\-\\-help\\fR; every
command with \\fB\\-\\-json\\fR prints exactly one JSON object. \\fBmmsim list\\fR names every
algorithm, permutation, layout, table and figure with its paper.
.PP
The sections below are the program's own help, command by command.
.SH OPTIONS
.nf
${options}
.fi
.SH COMMANDS
${commands}")
if(algorithms)
  string(APPEND page ".SH ALGORITHMS\nEach algorithm is run as \\fBmmsim run\\fR \\fIALGORITHM\\fR.\n${algorithms}")
endif()
string(APPEND page ".SH EXIT STATUS
Whenever the status is not 0, standard error holds one line that begins with \"mmsim:\" and says why.
.TP
.B 0
done: the work ran, every check passed and every output was written.
.TP
.B 1
the work ran, but a check of its output failed or an output could not be written.
.TP
.B 2
bad input, output paths included, refused before any work; nothing on standard output.
.TP
.B 3
internal error: a bug of mmsim (please report it with the command line).
.TP
.B 4
no usable GPU, in builds with the CUDA backend (\\fBmmsim gpu\\fR, \\fBmmsim validate\\fR).
.SH SEE ALSO
The source's README.md (where to start), docs/model.md (the machine's rules), results/README.md
(every reproduced table and figure), docs/exit\\-status.md, docs/report.md (the JSON report) and
docs/library.md (the C++ library, the CMake package and the Python module).
")

string(REGEX REPLACE "\\.gz$" "" plain "${OUTPUT}")
file(WRITE "${plain}" "${page}")
# gzip -9n as Debian compresses man pages: no name or time stamp, so one page gives one file.
find_program(GZIP gzip)
if(GZIP)
  execute_process(COMMAND ${GZIP} -9n -c "${plain}" OUTPUT_FILE "${OUTPUT}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip failed on ${plain}")
  endif()
else()
  file(ARCHIVE_CREATE OUTPUT "${OUTPUT}" PATHS "${plain}" FORMAT raw COMPRESSION GZip)
endif()
