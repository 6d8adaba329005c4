// Files appear whole or not at all (io/output_file.h), failed writes say why, and the
// checksum the reproduce manifest lists is SHA-256 (report/sha256.h).
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "experiments/reproduce.h"
#include "io/input_error.h"
#include "io/input_file.h"
#include "io/output_file.h"
#include "io/output_path.h"
#include "io/printable.h"
#include "io/quote.h"
#include "report/json_reader.h"
#include "report/sha256.h"

using namespace mmsim;
namespace fs = std::filesystem;

namespace {

struct TempFolder {
  fs::path path;
  TempFolder() {
    std::string t = (fs::temp_directory_path() / "mmsim-output-file-XXXXXX").string();
    path = ::mkdtemp(t.data());
  }
  ~TempFolder() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::size_t entries() const { return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), {})); }
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("a file appears under its name only when committed") {
  TempFolder dir;
  const std::string path = dir.file("a.csv");
  {
    OutputFile out(path);
    out.stream() << "half";
    out.stream().flush();
    CHECK_FALSE(fs::exists(path));  // written aside, under a hidden name
    CHECK(dir.entries() == 1);
    out.stream() << " and whole\n";
    out.commit();
  }
  CHECK(read(path) == "half and whole\n");
  CHECK(dir.entries() == 1);  // the temporary name is gone
}

TEST_CASE("a file not committed leaves the old content and no temporary file") {
  TempFolder dir;
  const std::string path = dir.file("a.csv");
  write_file_atomically(path, "old\n");
  {
    OutputFile out(path);
    out.stream() << std::string(1 << 20, 'x');  // beyond the buffer: really written aside
  }                                             // an exception, say, before commit
  CHECK(read(path) == "old\n");
  CHECK(dir.entries() == 1);
}

TEST_CASE("a replaced file keeps its permission bits; a new one gets the umask's") {
  TempFolder dir;
  const std::string path = dir.file("a.csv");
  write_file_atomically(path, "1");
  ::chmod(path.c_str(), 0640);
  write_file_atomically(path, "2");
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);
  const mode_t mask = ::umask(022);
  write_file_atomically(dir.file("b.csv"), "3");
  ::umask(mask);
  REQUIRE(::stat(dir.file("b.csv").c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
}

TEST_CASE("a write to a full device fails with the system's reason, naming the option") {
  if (!fs::exists("/dev/full")) return;
  OutputFile out("/dev/full", "--trace");
  CHECK(out.direct());
  out.stream() << "row\n";
  CHECK_THROWS_WITH_AS(out.commit(), "--trace: cannot write '/dev/full': No space left on device", WriteError);
}

TEST_CASE("a long writer learns of a failure at its next check") {
  if (!fs::exists("/dev/full")) return;
  OutputFile out("/dev/full");
  CHECK_NOTHROW(out.check());
  out.stream() << std::string(1 << 17, 'x');  // more than the buffer: a write happened and failed
  CHECK_THROWS_AS(out.check(), WriteError);
}

TEST_CASE("a folder that does not exist is one line, not a crash") {
  CHECK_THROWS_WITH_AS(OutputFile("/nonexistent-mmsim-folder/x.csv", "-o"),
                       "-o: cannot write '/nonexistent-mmsim-folder/x.csv': No such file or directory", WriteError);
}

TEST_CASE("SHA-256 of the FIPS 180-4 examples and of a file") {
  CHECK(report::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(report::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(report::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(report::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  TempFolder dir;
  const std::string text(200000, 'q');  // several read pieces
  write_file_atomically(dir.file("f"), text);
  CHECK(report::sha256_file_hex(dir.file("f")) == report::sha256_hex(text));
}

TEST_CASE("the manifest lists every file made with its size and SHA-256, and the failed checks") {
  TempFolder dir;
  write_file_atomically(dir.file("a.csv"), "x,y\n1,2\n");
  write_file_atomically(dir.file("b.md"), "");
  const report::JsonValue m = report::parse_json(
      experiments::manifest_json(dir.path.string(), {dir.file("a.csv"), dir.file("b.md")}, {"table t: row 2"}).dump());
  REQUIRE(m.find("files") != nullptr);
  const auto& files = m.find("files")->items();
  REQUIRE(files.size() == 2);
  CHECK(files[0].find("path")->text() == "a.csv");
  CHECK(files[0].find("bytes")->integer() == 8);
  CHECK(files[0].find("sha256")->text() == report::sha256_hex("x,y\n1,2\n"));
  CHECK(files[1].find("bytes")->integer() == 0);
  CHECK(files[1].find("sha256")->text() == report::sha256_hex(""));
  CHECK(m.find("failed_checks")->items().at(0).text() == "table t: row 2");
  CHECK(m.find("command")->text() == "mmsim reproduce --out " + dir.path.string());
  CHECK(m.find("version") != nullptr);
  CHECK_THROWS_AS(experiments::manifest_json(dir.path.string(), {dir.file("missing")}, {}), WriteError);
}

TEST_CASE("a quoted value is one printable line of valid UTF-8, cut where a character begins") {
  CHECK(quote("d\nmm") == "'d mm'");
  CHECK(quote("a\x1b[31mb") == "'a?[31mb'");
  CHECK(quote(std::string("a\0b", 3)) == "'a?b'");
  CHECK(quote("caf\xc3\xa9") == "'caf\xc3\xa9'");           // UTF-8 kept
  CHECK(quote("x\xff\xc3(\xed\xa0\x80y") == "'x??(???y'");  // not UTF-8: each byte a '?'
  CHECK(quote("\xc3\xa9\xc3\xa9", 3) == "'\xc3\xa9...'");   // never half a character
  CHECK(quote(std::string(131000, 'a')).size() == 45);
  CHECK(quote("a\r\tb\x7f") == "'a  b?'");  // as io/quote.h says: \r and \t a space, DEL '?'
  CHECK(quote("abcdef", 3) == "'abc...'");
  CHECK(quote("abc", 3) == "'abc'");  // nothing left out: no "..."
  CHECK(one_line("a\nb\x07") == "a b?");
  CHECK(one_line(std::string(1000, 'x')).size() == 483);
}

TEST_CASE("a name pasted whole into a message is shown as quote() shows it; a plain short one as it is") {
  CHECK(shown_name("read a") == "read a");
  CHECK(shown_name(std::string(32, 'k')) == std::string(32, 'k'));
  CHECK(shown_name(std::string(33, 'k')) == "'" + std::string(32, 'k') + "...'");
  CHECK(shown_name("k\x1b[2J") == "'k?[2J'");
  CHECK(shown_name("caf\xc3\xa9") == "'caf\xc3\xa9'");  // not ASCII: quoted, so that its end is plain
  const std::string k = "\x1b[2J" + std::string(3000, 'x'), a = std::string(500, 'a');
  // The engine's words (sim/engine.cpp) with every name whole; the shorter name inside the longer
  // one is left to the longer's replacement.
  const std::string said = "kernel " + k + " step 0 (" + k + "): address 3200 outside " + a + "[32]";
  const std::string shown = with_names_shown(said, {a, "x", k, ""});
  CHECK(shown ==
        "kernel " + shown_name(k) + " step 0 (" + shown_name(k) + "): address 3200 outside " + shown_name(a) + "[32]");
  CHECK(shown.size() < 200);
  CHECK(with_names_shown("kernel k step 0 (read a)", {"k", "read a"}) == "kernel k step 0 (read a)");
}

TEST_CASE("any name a file system takes can be written, however long: the temporary name is shorter") {
  TempFolder dir;
  const std::string name = (dir.path / std::string(250, 'n')).string();
  write_file_atomically(name, "x\n");
  std::ifstream in(name);
  std::string line;
  std::getline(in, line);
  CHECK(line == "x");
  CHECK(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()) == 1);
}

TEST_CASE("a file beside an output replaces a link planted at its name and never writes its target") {
  TempFolder dir;
  const fs::path target = dir.path / "target", link = dir.path / "o.json";
  std::ofstream(target) << "kept\n";
  fs::create_symlink(target, link);
  write_file_atomically(link.string(), "new\n", "-o", Links::Replace);
  CHECK(!fs::is_symlink(link));
  std::ifstream t(target);
  std::string line;
  std::getline(t, line);
  CHECK(line == "kept");
  // A name the user gave is written through its link, as before.
  fs::create_symlink(target, dir.path / "named");
  write_file_atomically((dir.path / "named").string(), "through\n");
  std::ifstream t2(target);
  std::getline(t2, line);
  CHECK(line == "through");
}

TEST_CASE("an output path with a name over 255 bytes is refused before any work; a link beside one too") {
  TempFolder dir;
  CHECK_THROWS_AS(check_output_file("-o", (dir.path / std::string(256, 'n')).string()), InputError);
  CHECK_THROWS_AS(check_output_folder("--out", (dir.path / std::string(300, 'd')).string()), InputError);
  CHECK_NOTHROW(check_output_file("-o", (dir.path / std::string(255, 'n')).string()));
  fs::create_symlink(dir.path / "elsewhere", dir.path / "o.json");
  CHECK_THROWS_WITH_AS(check_output_beside("-o", (dir.path / "o.json").string()),
                       doctest::Contains("is a symbolic link"), InputError);
}

TEST_CASE("a pipe read past its bound is an error, never a whole input") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const std::string text(100, 'a');
  REQUIRE(::write(fds[1], text.data(), text.size()) == 100);
  ::close(fds[1]);
  const int saved = ::dup(STDIN_FILENO);
  ::dup2(fds[0], STDIN_FILENO);
  ::close(fds[0]);
  {
    InputFile in("trace", "-", 50, "that the test allows", true);
    std::string all((std::istreambuf_iterator<char>(in.stream())), std::istreambuf_iterator<char>());
    CHECK(all.size() == 50);
    CHECK_THROWS_WITH_AS(in.check_read_whole(), doctest::Contains("has more than"), InputError);
  }
  ::dup2(saved, STDIN_FILENO);
  ::close(saved);
}
