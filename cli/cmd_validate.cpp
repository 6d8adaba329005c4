// `mmsim validate --profile FILE [--measured DIR]`: the GPU's measured times beside the times the
// profile predicts by simulation, for every cost model (predict/validate/prediction_table.h). Reads the
// CSVs `mmsim gpu reproduce` wrote; needs no GPU. Two modes beside it: `--microbenchmarks` prints
// the profile's own microbenchmarks priced by its models, and `--tables DIR...` the tables of
// docs/prediction.md from the per-run CSVs earlier validations wrote (predict/validate/summary_tables.h).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <limits>
#include <optional>

#include "cli/common.h"
#include "cli/profile_option.h"
#include "cli/sampling_option.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "io/work_bounds.h"
#include "predict/validate/family.h"
#include "predict/validate/prediction_table.h"
#include "predict/validate/summary_tables.h"
#include "report/csv.h"
#include "sim/workers.h"

namespace mmsim::cli {

namespace {

// --families: "all" or names from kni and the family readers, comma-separated.
std::vector<std::string> chosen_families(const std::string& text) {
  std::vector<std::string> known{"kni"};
  for (const auto& reader : predict::validate::family_readers()) known.push_back(reader.name);
  if (text == "all") return known;
  std::vector<std::string> out;
  const auto names = report::split_csv_record(text);
  if (!names) throw InputError("--families: a comma-separated list of names (got " + quote(text) + ")");
  for (const std::string& name : *names) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
      throw InputError("--families: unknown family " + quote(name) + " (known: all, " + list + ")");
    }
    out.push_back(name);
  }
  if (out.empty()) throw InputError("--families: name at least one family");
  return out;
}

}  // namespace

namespace {

// A progress line on how the A-S rows are priced: with the instruction term fitted on the folder's
// microbenchmarks (its constants and errors), or by the shared-memory time units alone.
std::string instruction_note(const std::filesystem::path& dir, const predict::GpuProfile& profile) {
  const auto c = predict::validate::as_instruction_costs(dir, profile);
  if (!c)
    return "validate: A-S priced by shared-memory time units alone (no instructions.csv, instructions-ncu.csv "
           "and as-ncu.csv in " +
           quote(dir.string()) + ")\n";
  const auto copy = predict::validate::as_copy_costs(dir, profile);
  return "validate: A-S priced with the instruction term fitted on " + quote((dir / "instructions.csv").string()) +
         ": " + predict::describe(*c) +
         (copy ? "; launches of many with the copy term fitted on instructions-copy.csv: " + predict::describe(*copy)
               : std::string("; their copies in and out unpriced (no instructions-copy.csv)")) +
         "\n";
}

// The refitted profile's file name in the --out folder, from the profile's own `device` field:
// only letters, digits, '-', '_' and '.' are kept (others become '_'), never a leading '.', at most
// 64 bytes, so that a device of "/../../x" names a file in that folder and nowhere else.
std::string refit_profile_name(const std::string& device) {
  std::string slug;
  for (const char c : device.substr(0, 64)) {
    const bool keep =
        std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '_' || (c == '.' && !slug.empty());
    slug += keep && static_cast<unsigned char>(c) < 0x80 ? c : '_';
  }
  return "profile-" + (slug.empty() ? std::string("device") : slug) + ".json";
}

}  // namespace

Runner add_validate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "validate",
      "GPU times measured (mmsim gpu reproduce) against times predicted from a GPU profile, per cost model");
  struct Opts {
    std::string profile, measured = "results/gpu-<device>", type = "float", format = "md", out, name = "validate",
                         counts, instructions_from;
    std::vector<std::string> tables;
    std::uint64_t max_memory = 0, dram_write_rows = 0;
    std::uint64_t min_n = std::uint64_t{1} << 20, max_n = std::uint64_t{1} << 24;
    std::string families = "all";
    ThreadsOption threads;
    SamplingOption sampling;
    bool refit = false, fit_cache = false, counts_only = false, microbenchmarks = false;
  };
  auto o = std::make_shared<Opts>();
  auto* profile_option = cmd->add_option("--profile", o->profile, "the GPU profile (mmsim gpu calibrate)");
  cmd->add_option(
         "--measured", o->measured,
         "folder of the GPU tables (kasagi-t2.csv, rap-t3.csv, bmmc.csv with bmmc-matrices.txt, enumeration.csv, "
         "enumeration_3d.csv, as-gpu.csv)")
      ->capture_default_str();
  cmd->add_option("--type", o->type, "float or double")
      ->check(CLI::IsMember({"float", "double"}))
      ->capture_default_str();
  add_integer_option(*cmd, o->min_n,
                     integer_param("min-n", "--min-n", "smallest n simulated", 1, std::int64_t{1} << 28));
  add_integer_option(
      *cmd, o->max_n,
      integer_param("max-n", "--max-n", "largest n simulated (each run is simulated twice)", 1, std::int64_t{1} << 28));
  cmd->add_option("--families", o->families,
                  "comma-separated families to predict: kni (kasagi-t2.csv), rap (rap-t3.csv), bmmc (bmmc.csv), parm "
                  "(parm-gpu.csv), enumeration (enumeration.csv, enumeration_3d.csv), as (as-gpu.csv); or all. --min-n "
                  "and --max-n bound kni, bmmc, parm and enumeration; rap and as are one warp's shared memory and "
                  "always run")
      ->capture_default_str();
  o->threads.add_to(*cmd, "host threads (one simulated run each)");
  o->sampling.add_to(*cmd, "each run");
  cmd->add_option("--instructions-from", o->instructions_from,
                  "folder to read the A-S pricing's instruction and copy microbenchmarks and the kernels' counts from "
                  "(instructions.csv, instructions-ncu.csv, instructions-copy.csv, as-ncu.csv) instead of --measured: "
                  "a GPU of the same SM measured on another machine (docs/prediction.md)");
  cmd->add_option("--counts", o->counts,
                  "counts file (CSV): reuse the runs it holds for this machine instead of simulating them, and write "
                  "it back with every run's counts added");
  cmd->add_flag("--counts-only", o->counts_only,
                "simulate nothing: price the runs the --counts file holds and mark the others \"not in the counts "
                "file\"");
  add_integer_option(*cmd, o->max_memory,
                     integer_param("max-memory", "--max-memory",
                                   "bytes the parallel runs may use together, by their estimates (default: the "
                                   "memory available)",
                                   1, std::numeric_limits<std::int64_t>::max()));
  cmd->add_option("--format", o->format, "md, csv or json")
      ->check(CLI::IsMember({"md", "csv", "json"}))
      ->capture_default_str();
  cmd->add_flag("--refit", o->refit,
                "fit the profile's constants again from the microbenchmark timings it records (after a change of the "
                "cost models; no GPU needed) and write the refitted profile beside the tables with --out");
  cmd->add_flag("--fit-cache", o->fit_cache,
                "with --refit: fit the simulated L2's capacity too, on the same microbenchmarks (eight fits, at 1/8 to "
                "8/8 of the GPU's L2)")
      ->needs("--refit");
  add_integer_option(*cmd, o->dram_write_rows,
                     integer_param("dram-write-rows", "--dram-write-rows",
                                   "with --refit: the rows a write-back is merged over (a power of two; the profile "
                                   "keeps it), instead of the profile's",
                                   1, std::int64_t{1} << 20))
      ->needs("--refit");
  cmd->add_option("--out", o->out,
                  "also write validate.{md,csv}, validate-summary.{md,csv} and (without --counts) validate-counts.csv "
                  "to this folder");
  cmd->add_option("--name", o->name,
                  "with --out: the files' stem instead of validate (NAME.{md,csv}, NAME-summary.{md,csv}, "
                  "NAME-counts.csv)")
      ->capture_default_str();
  cmd->add_flag("--microbenchmarks", o->microbenchmarks,
                "print the profile's calibration microbenchmarks priced by each of its models (from the counts the "
                "profile records), and nothing else")
      ->needs(profile_option);
  cmd->add_option("--tables", o->tables,
                  "print the tables of docs/prediction.md as Markdown from the validate CSVs in these folders "
                  "(validate.csv, validate-n67108864.csv, validate-n268435456.csv, validate-parm.csv), and nothing "
                  "else; each folder is one GPU, named by the folder (gpu-h100: H100)")
      ->excludes(profile_option);
  return [o] {
    if (!o->tables.empty()) {
      std::vector<predict::ValidateFolder> folders;
      std::string command = "mmsim validate --tables";
      for (const std::string& dir : o->tables) {
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) throw InputError("--tables: " + quote(dir) + " is not a folder");
        folders.push_back(predict::validate_folder(dir));
        command += " " + dir;
      }
      try {
        std::cout << predict::prediction_tables_markdown(folders, command);
      } catch (const std::invalid_argument& e) {
        throw InputError(std::string("--tables: ") + e.what());
      }
      return kOk;
    }
    if (o->profile.empty()) throw InputError("validate: --profile is required (or --tables)");
    predict::GpuProfile profile = read_profile_option(o->profile);
    if (o->microbenchmarks) {
      try {
        std::cout << report::render(predict::microbench_table(profile), parse_format_option(o->format));
      } catch (const std::invalid_argument& e) {
        throw InputError("--microbenchmarks: " + quote(o->profile) + ": " + e.what());
      }
      return kOk;
    }
    if (o->name.empty() || o->name.find('/') != std::string::npos) throw InputError("--name: a file stem, without '/'");
    // Every input and output is checked before the first line of progress: a bad --format, --out or
    // --counts is one line and status 2, not an error after minutes of simulation.
    const report::Format f = parse_format_option(o->format);
    if (!o->out.empty()) {
      check_output_folder("--out", o->out);
      for (const char* suffix : {".md", ".csv", "-summary.md", "-summary.csv", "-counts.csv"})
        check_name_lengths("--name", o->name + suffix);
    }
    if (!o->counts.empty()) check_output_file("--counts", o->counts);
    std::string counts_note;  // said with the other progress, once every input was read
    std::optional<predict::CountsFile> counts;
    std::error_code counts_ec;
    if (!o->counts.empty() && std::filesystem::exists(o->counts, counts_ec)) {
      counts = read_counts_option(o->counts);
      if (counts->left_out() > 0)
        counts_note = "validate: " + quote(o->counts) + ": " + std::to_string(counts->left_out()) +
                      " rows lack the rows opened by merged write-backs, which their counts do not imply: "
                      "their runs are simulated again\n";
    }
    if (o->counts_only && !counts) throw InputError("--counts-only: give an existing counts file with --counts");
    {
      std::error_code ec;  // the measured folder, before minutes of refitting (it is read below)
      if (o->measured != "results/gpu-<device>" && !std::filesystem::is_directory(o->measured, ec))
        throw InputError("--measured: " + quote(o->measured) + " is not a folder");
    }
    // By default the measured tables are those of the profile's own device (results/gpu-h100, ...).
    if (o->measured == "results/gpu-<device>") o->measured = "results/gpu-" + profile.device;
    const unsigned threads = o->threads.value() == 0 ? hardware_threads() : o->threads.value();
    std::string refitted;  // written once every input was read
    if (o->refit) {
      if (profile.timings.empty()) throw InputError("--refit: the profile records no microbenchmark timings");
      const auto timings = profile.timings;
      if (o->dram_write_rows != 0) {
        profile.memory.dram_write_rows = static_cast<std::uint32_t>(o->dram_write_rows);
        if (auto err = profile.memory.validate()) throw InputError("--" + *err);
      }
      // The counts the profile records serve a refit that keeps its memory: no simulation.
      if (o->fit_cache)
        predict::fit_cache_capacity(profile, timings, threads);
      else if (o->dram_write_rows == 0 && profile.timing_counts.size() == timings.size())
        predict::refit_recorded(profile);
      else
        predict::fit_profile(profile, timings, threads);
      if (!o->out.empty()) refitted = predict::profile_json(profile);
    }
    const std::vector<std::string> families = chosen_families(o->families);
    const auto wanted = [&](const std::string& name) {
      return std::find(families.begin(), families.end(), name) != families.end();
    };
    std::vector<predict::MeasuredRun> measured;
    std::string progress;  // printed once every table has been read: no progress before an error
    try {
      const std::filesystem::path dir(o->measured);
      // With all families, a table the folder lacks (a GPU stage not run) is skipped and said so.
      std::error_code ec;  // a name too long for the file system is a bad input, not an exception
      if (!std::filesystem::is_directory(dir, ec))
        throw std::invalid_argument(quote(dir.string()) + " is not a folder");
      int tables = 0;
      std::string skipped;
      const auto present = [&](const std::string& file) {
        if (o->families != "all" || std::filesystem::exists(dir / file, ec)) return ++tables, true;
        skipped += (skipped.empty() ? "" : ", ") + file;
        return false;
      };
      if (wanted("kni") && present("kasagi-t2.csv"))
        measured = predict::read_kasagi_measurements(dir / "kasagi-t2.csv", o->min_n, o->max_n, o->type);
      predict::validate::Selection selection{o->min_n, o->max_n, o->type, {}};
      if (!o->instructions_from.empty()) {
        selection.instructions = o->instructions_from;
        for (const char* file : {"instructions.csv", "instructions-ncu.csv", "as-ncu.csv"})
          if (!std::filesystem::exists(selection.instructions / file, ec))
            throw InputError("--instructions-from: " + quote(o->instructions_from) + " has no " + file);
      }
      for (const auto& reader : predict::validate::family_readers()) {
        if (!wanted(reader.name) || !present(reader.file)) continue;
        auto rows = reader.read(dir, selection, profile);
        progress += "validate: " + std::to_string(rows.size()) + " " + reader.name + " rows from " + reader.file + "\n";
        if (const auto floored = std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.tile_floor; });
            floored != rows.end())  // one fit for the folder: the first row's
          progress += "validate: " + reader.name +
                      "'s runs floored by the tile term fitted on instructions-tiles.csv: " +
                      predict::describe(floored->tile_floor->costs) + "\n";
        if (reader.name == "as")
          progress += instruction_note(selection.instructions.empty() ? dir : selection.instructions, profile);
        measured.insert(measured.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
      }
      if (tables == 0) throw std::invalid_argument(quote(dir.string()) + " holds none of the GPU tables");
      if (!skipped.empty()) progress += "validate: not in " + quote(dir.string()) + ", skipped: " + skipped + "\n";
    } catch (const std::invalid_argument& e) {
      throw InputError(std::string("--measured: ") + e.what());
    }
    std::cerr << counts_note << progress;
    if (!refitted.empty())
      write_file_atomically((std::filesystem::path(o->out) / refit_profile_name(profile.device)).string(), refitted,
                            "--out");
    predict::CountsFile written = counts.value_or(predict::CountsFile{});
    predict::SimulationPlan plan{
        threads, o->max_memory ? o->max_memory : memory_available(), counts ? &*counts : nullptr, &std::cerr, {}};
    plan.counts_only = o->counts_only;
    plan.sampling = o->sampling.value();
    // The file is written again as each run ends: a validation stopped half-way keeps its runs.
    if (!o->counts.empty())
      plan.finished = [&](const predict::CountsRow& row) {
        written.put(row);
        write_file_atomically(o->counts, written.csv(), "--counts");
      };
    const auto rows = predict::predict_runs(profile, measured, plan);
    for (auto& row : predict::counts_rows(profile, rows)) written.put(std::move(row));
    if (!o->counts.empty()) write_file_atomically(o->counts, written.csv(), "--counts");
    const report::Table table = predict::prediction_table(profile, rows);
    const report::Table summary = predict::prediction_summary(profile, rows);
    if (!o->out.empty()) {
      const std::filesystem::path dir(o->out);
      const std::string& stem = o->name;
      write_file_atomically((dir / (stem + ".md")).string(), report::to_markdown(table), "--out");
      write_file_atomically((dir / (stem + ".csv")).string(), report::to_csv(table), "--out");
      write_file_atomically((dir / (stem + "-summary.md")).string(), report::to_markdown(summary), "--out");
      write_file_atomically((dir / (stem + "-summary.csv")).string(), report::to_csv(summary), "--out");
      // With --counts, the counts are kept in that file (written above) and not copied here.
      if (o->counts.empty()) {
        predict::CountsFile these;
        for (auto& row : predict::counts_rows(profile, rows)) these.put(std::move(row));
        write_file_atomically((dir / (stem + "-counts.csv")).string(), these.csv(), "--out");
      }
    }
    std::cout << report::render(summary, f) << (f == report::Format::Markdown ? "\n" : "")
              << (f == report::Format::Markdown ? report::render(table, f) : std::string());
    return report::failed_rows(table) ? kCheckFailed : kOk;
  };
}

}  // namespace mmsim::cli
