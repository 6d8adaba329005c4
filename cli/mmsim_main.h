// The whole `mmsim` command as a function: parses `argv`, runs the command, and returns its exit
// status (cli/common.h) instead of ending the process, so that a test or a fuzz target can call it
// many times in one process. Output goes to this process's stdout and stderr.
#pragma once

namespace mmsim::cli {

/// argv[0] is the program's name, as in main. Never calls exit: every error becomes one line on
/// stderr and a status (2 bad input, 1 a failed check or write, 3 an internal error).
int mmsim_main(int argc, char** argv);

}  // namespace mmsim::cli
