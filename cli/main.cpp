// mmsim: the program is a thin wrapper over the command as a function (cli/mmsim_main.h).
#include "cli/mmsim_main.h"

int main(int argc, char** argv) { return mmsim::cli::mmsim_main(argc, argv); }
