// The check every option that names an output makes before any work: a run that computes for
// minutes and then finds it cannot write its result has wasted them, and an empty folder name that
// turns "" + "/table.csv" into a file at the filesystem's root has written where no one asked.
#pragma once

#include <string>

namespace mmsim {

/// Throws InputError("OPTION: ...", one line) unless `path` names a file that can be created or
/// overwritten: not empty, not a folder, in a folder that exists and takes new files (and, when the
/// file exists, writable itself). Whether a folder takes new files is tried, by making and removing
/// a hidden file of its own there; an existing file is opened but not changed.
void check_output_file(const std::string& option, const std::string& path);

/// check_output_file for a file the user never named, written beside an output (a sweep's JSON and
/// journal): also refused where the path is already a symbolic link or anything but a regular
/// file, so that nothing planted there redirects or swallows the write.
void check_output_beside(const std::string& option, const std::string& path);

/// Throws InputError("OPTION: ...") when a component of `path` is longer than a file system takes
/// (255 bytes); every check here does this first.
void check_name_lengths(const std::string& option, const std::string& path);

/// Throws InputError("OPTION: ...", one line) unless `path` names a folder that exists and that
/// takes new files, or one that can be made: not empty, and its parent an existing folder that
/// takes new entries (tried as above). Only the last level is ever made (by the writer, not here):
/// a mistyped parent is refused rather than silently built.
void check_output_folder(const std::string& option, const std::string& path);

}  // namespace mmsim
