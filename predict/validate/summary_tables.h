// The tables of docs/prediction.md, made from the per-run CSVs `mmsim validate --out` writes
// (`mmsim validate --tables`): per GPU, the KNI families at each size simulated, the other
// families, and every KNI float run pooled. Each cell is the median |predicted / measured - 1| and
// the worst factor max(predicted / measured, measured / predicted) over the runs priced.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace mmsim::predict {

/// One GPU's folder of validate files, and the name its rows carry.
struct ValidateFolder {
  std::string gpu;  ///< "H100" for results/gpu-h100
  std::filesystem::path dir;
  std::filesystem::path profile;  ///< the profile whose model choice the intervals table reads; empty: none
};

/// The folder `dir`: results/gpu-h100 is named "H100" (its last component without "gpu-", in
/// capitals) and its profile is profile-h100.json; a folder of another name that holds one profile
/// (profile-h100.json in results/gpu-h100/recalibration-2026-12-07) is named by that profile's
/// device and the folder, "H100, recalibration-2026-12-07", and that profile is its own.
ValidateFolder validate_folder(const std::filesystem::path& dir);

/// The per-run tables read, in each folder:
///  - validate.csv: every family at n = 2^20..2^24 and the one-warp families (kni, families);
///  - validate-n67108864.csv, validate-n268435456.csv: the KNI runs at 2^26 and 2^28 (kni);
///  - validate-parm.csv: the parm network below 2^20 (families).
/// A size whose file is absent is left out. The columns are the cost models that every file read
/// prices (a file written before a model was retired keeps its columns; they are left out), then,
/// where a folder holds its profile, one headed "chosen (GPU MODEL, ...)": each GPU's errors with
/// the model its own profile chose, which the shared columns may lack ("-" where its tables do not
/// price that model). Returns
/// the three tables as Markdown, and a fourth, per GPU whose folder holds its profile: the model the
/// profile's cross-validation chose (model_choice.h), its error on the microbenchmarks (fitted, and
/// each with its pattern left out) and on every family, and the share of runs inside the interval
/// `mmsim predict` prints. Each table stands between a
/// line "<!-- prediction table NAME: COMMAND -->" and a line "<!-- end of prediction table NAME -->"
/// (NAME: kni, overall, families, intervals), so that a document holding them can be checked against this
/// output. Throws std::invalid_argument naming the file (and line) for a file that cannot be read
/// or is not a validate table, and naming the file for a table of a folder that holds its profile
/// but was priced with another (its rows' profile_date or cache_bytes are not the profile's).
std::string prediction_tables_markdown(const std::vector<ValidateFolder>& folders, const std::string& command);

}  // namespace mmsim::predict
