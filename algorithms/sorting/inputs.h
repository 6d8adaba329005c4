// The inputs of the three problems of AS Sect. 1 on a w x m matrix: keys to sort, partition labels
// (m copies of each row index) and permutation labels (each cell index once), drawn from a seed or
// read from a user's file and checked before a run.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "sim/types.h"

namespace mmsim::sorting {

/// What an algorithm solves, hence which inputs it accepts (AS Sect. 1, "Problems of interest").
enum class Task { Sort, Partition, Permute };

/// Random keys, a random arrangement of m copies of each label in [0, w), a random permutation of
/// [0, w m); input[i m + j] is row i, column j.
std::vector<Word> random_keys(int w, std::uint64_t m, std::uint64_t seed);
std::vector<Word> random_partition(int w, std::uint64_t m, std::uint64_t seed);
std::vector<Word> random_permutation(int w, std::uint64_t m, std::uint64_t seed);
/// The one of the three that `task` takes.
std::vector<Word> random_input(Task task, int w, std::uint64_t m, std::uint64_t seed);

/// Checks a user's input for the task; throws InputError naming the first bad line (1-based) of
/// `source`.
void check_input(Task task, int w, std::uint64_t m, const std::vector<Word>& input, const std::string& source);
/// A keys file's line holds one value and blanks around it; blank lines are skipped but count
/// towards the file's bound of count * (kMaxKeyLineChars + 1) bytes.
inline constexpr std::size_t kMaxKeyLineChars = 64;
/// Parses one unsigned 32-bit value per line of `in` (named `file` in messages); throws InputError
/// naming the file and the bad line.
std::vector<Word> parse_keys(std::istream& in, std::uint64_t count, const std::string& file);
/// Opens `path` safely (io/input_file.h) and parses it.
std::vector<Word> read_keys_file(const std::string& path, std::uint64_t count);

}  // namespace mmsim::sorting
