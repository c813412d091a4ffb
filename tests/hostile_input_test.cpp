// Hostile input, by class: files that a mesh file names, work that grows
// faster than its input, memory per YAML node, symlinks and FIFOs planted in
// an output folder, a run killed between two renames, one problem listed twice.
#include "io/mesh_reader.h"
#include "shapes/mesh.h"
#include "shapes/mesh_cache.h"
#include "io/mesh_file_system.h"
#include "io/output_folder.h"
#include "io/yaml_reader.h"
#include "io/srdf_reader.h"
#include "io/urdf_robot.h"
#include "generators/generators.h"
#include "test_support.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <csignal>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <memory>

using namespace prmkit;
namespace fs = std::filesystem;
using test::cli;
using test::Run;
using test::TempDir;

namespace {

/// A glTF 2.0 file whose one triangle's corners are in the buffer `uri`.
std::string gltfNaming(const std::string& uri) {
  return fmt::format(R"({{"asset": {{"version": "2.0"}}, "scene": 0, "scenes": [{{"nodes": [0]}}],
 "nodes": [{{"mesh": 0}}], "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
 "buffers": [{{"uri": "{}", "byteLength": 36}}],
 "bufferViews": [{{"buffer": 0, "byteOffset": 0, "byteLength": 36}}],
 "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                 "min": [0, 0, 0], "max": [1, 1, 0]}}]}})",
                     uri);
}

/// The 36 bytes of three float corners (0,0,0), (1,0,0), (0,1,0).
std::string triangleBuffer() {
  const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  return std::string(reinterpret_cast<const char*>(corners), sizeof(corners));
}

std::string loadError(const fs::path& file) {
  try {
    loadMeshFile(file);
  } catch (const MeshLoadError& e) {
    return e.what();
  }
  return "";
}

const std::string& kProblem = test::kTinyProblem;

std::vector<std::string> entries(const fs::path& folder) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// kProblem as p.yaml and a sweep of it (prm, discrete, `seeds` seeds) as s.yaml in `dir`; returns the sweep file.
fs::path writeOneProblemSweep(TempDir& dir, int seeds) {
  dir.write("p.yaml", kProblem);
  return dir.write("s.yaml", fmt::format(R"(name: s
problems: [p.yaml]
planners: [{{type: prm}}]
checkers: [{{type: discrete}}]
seeds: {}
time_limit: 5
)",
                                         seeds));
}
}  // namespace

TEST_CASE("a mesh file read before gives its kept mesh only while its bytes and its geometry's files are the same",
          "[hostile]") {
  TempDir dir;
  fs::create_directories(dir.path / "mesh");
  const auto counts = [] { return meshCacheCounts(); };
  const std::string box = "mtllib looks.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n";
  dir.write("mesh/looks.mtl", "newmtl grey\nKd 0.5 0.5 0.5\n");
  const auto file = dir.write("mesh/box.obj", box);
  MeshCacheCounts before = counts();
  const Mesh first = loadMeshFile(file);
  CHECK(counts().file_misses == before.file_misses + 1);
  // Read again (a material library is looks, not geometry): the kept mesh, equal.
  before = counts();
  const Mesh again = loadMeshFile(file);
  CHECK(counts().file_hits == before.file_hits + 1);
  REQUIRE(again.vertices == first.vertices);
  REQUIRE(again.triangles == first.triangles);
  // Another scale or another extension is another mesh.
  before = counts();
  const Mesh scaled = loadMeshFile(file, Eigen::Vector3d(2, 2, 2));
  CHECK(counts().file_misses == before.file_misses + 1);
  REQUIRE(scaled.bounds().max().x() == 2.0);
  // Changed bytes are read again, never answered from what was kept.
  dir.write("mesh/box.obj", "v 0 0 0\nv 3 0 0\nv 0 1 0\nf 1 2 3\n");
  const Mesh changed = loadMeshFile(file);
  REQUIRE(changed.triangles.size() == 1);
  REQUIRE(changed.bounds().max().x() == 3.0);
  // A glTF's geometry lies in its buffer: never kept, so a changed buffer is read.
  dir.write("mesh/tri.bin", triangleBuffer());
  const auto gltf = dir.write("mesh/tri.gltf", gltfNaming("tri.bin"));
  REQUIRE(loadMeshFile(gltf).triangles.size() == 1);
  before = counts();
  REQUIRE(loadMeshFile(gltf).triangles.size() == 1);
  CHECK(counts().file_hits == before.file_hits);
  fs::remove(dir.path / "mesh/tri.bin");
  CHECK_THROWS_AS(loadMeshFile(gltf), MeshLoadError);

  // A mesh's BVH and cover: built once, each caller given its own BVH, the
  // same cover as building them again gives.
  const Mesh crate = boxMesh({0.3, 0.2, 0.1});
  const PreparedMesh built = prepareMesh(crate, true);
  before = counts();
  const PreparedMesh kept = prepareMesh(crate, true);
  CHECK(counts().prepared_hits == before.prepared_hits + 1);
  REQUIRE(kept.bvh != built.bvh);
  REQUIRE(kept.bvh->getNumBVs() == built.bvh->getNumBVs());
  const ConvexCover fresh = convexCoverOf(crate, *buildBvh(crate));
  REQUIRE(kept.cover.pieces.size() == fresh.pieces.size());
  REQUIRE(kept.cover.hull->vertices == fresh.hull->vertices);
  // Without a cover first, then with one: the cover is built when first asked for.
  const Mesh plank = boxMesh({1.0, 0.1, 0.1});
  REQUIRE(prepareMesh(plank, false).cover.empty());
  REQUIRE_FALSE(prepareMesh(plank, true).cover.empty());
}

TEST_CASE("the mesh cache counts BVHs and covers against its bound and keeps the most recent meshes", "[hostile]") {
  // A strip of `triangles` triangles, distinct for each `offset`.
  const auto strip = [](int triangles, double offset) {
    Mesh mesh;
    for (int i = 0; i <= triangles / 2; ++i) {
      mesh.vertices.emplace_back(offset + i * 1e-3, 0.0, 0.0);
      mesh.vertices.emplace_back(offset + i * 1e-3, 1e-3, 1e-4 * (i % 7));
    }
    for (int i = 0; i + 1 < triangles / 2; ++i) {
      mesh.triangles.push_back({2 * i, 2 * i + 1, 2 * i + 2});
      mesh.triangles.push_back({2 * i + 1, 2 * i + 3, 2 * i + 2});
    }
    return mesh;
  };
  const int triangles = 4000;
  const MeshCacheCounts before = meshCacheCounts();
  const PreparedMesh first = prepareMesh(strip(triangles, 1e6), false);
  // The BVH's nodes count, not only the mesh's vertices and triangles.
  const std::uint64_t bvhNodes = static_cast<std::uint64_t>(first.bvh->getNumBVs()) * sizeof(fcl::BVNode<fcl::OBBRSSd>);
  CHECK(meshCacheCounts().bytes_kept >= before.bytes_kept + bvhNodes);
  // Distinct meshes past the bound: the cache stays within it, the oldest go, the newest stay.
  const int meshes = static_cast<int>(kMaxMeshCacheBytes / bvhNodes) + 20;
  for (int m = 1; m <= meshes; ++m) {
    prepareMesh(strip(triangles, 1e6 + m), false);
    REQUIRE(meshCacheCounts().bytes_kept <= kMaxMeshCacheBytes);
  }
  MeshCacheCounts counts = meshCacheCounts();
  prepareMesh(strip(triangles, 1e6 + meshes), false);
  CHECK(meshCacheCounts().prepared_hits == counts.prepared_hits + 1);
  counts = meshCacheCounts();
  prepareMesh(strip(triangles, 1e6), false);
  CHECK(meshCacheCounts().prepared_misses == counts.prepared_misses + 1);
}

TEST_CASE("files a mesh file names get the mesh file's checks: FIFOs, folders outside, sizes", "[hostile]") {
  TempDir dir;
  fs::create_directories(dir.path / "mesh");
  dir.write("mesh/tri.bin", triangleBuffer());
  // The same file with a good buffer loads: the checks do not refuse what is fine.
  REQUIRE(loadMeshFile(dir.write("mesh/good.gltf", gltfNaming("tri.bin"))).triangles.size() == 1);

  // A FIFO would block the read forever: refused at once, and named.
  REQUIRE(::mkfifo((dir.path / "mesh/pipe.bin").c_str(), 0644) == 0);
  const std::string fifo = loadError(dir.write("mesh/fifo.gltf", gltfNaming("pipe.bin")));
  CHECK(fifo.find("pipe.bin") != std::string::npos);
  CHECK(fifo.find("not a regular file") != std::string::npos);

  // A buffer outside the mesh file's folder (a path up, or a symlink out).
  dir.write("outside.bin", triangleBuffer());
  const std::string up = loadError(dir.write("mesh/up.gltf", gltfNaming("../outside.bin")));
  CHECK(up.find("outside the mesh file's folder") != std::string::npos);
  fs::create_symlink(dir.path / "outside.bin", dir.path / "mesh/link.bin");
  const std::string linked = loadError(dir.write("mesh/link.gltf", gltfNaming("link.bin")));
  CHECK(linked.find("outside the mesh file's folder") != std::string::npos);

  // A side file larger than the mesh size limit is refused before a byte is
  // read (sparse: it takes no disk).
  {
    const int fd = ::open((dir.path / "mesh/huge.bin").c_str(), O_WRONLY | O_CREAT, 0644);
    REQUIRE(fd >= 0);
    REQUIRE(::ftruncate(fd, static_cast<off_t>(kMaxMeshFileBytes + 1)) == 0);
    ::close(fd);
  }
  const std::string huge = loadError(dir.write("mesh/huge.gltf", gltfNaming("huge.bin")));
  CHECK(huge.find("huge.bin") != std::string::npos);
  CHECK(huge.find("mesh size limit") != std::string::npos);

  // An OBJ's material library that is a FIFO: the geometry still loads, the FIFO is never opened.
  REQUIRE(::mkfifo((dir.path / "mesh/materials.mtl").c_str(), 0644) == 0);
  const auto obj = dir.write("mesh/tri.obj", "mtllib materials.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  REQUIRE(loadMeshFile(obj).triangles.size() == 1);
  // Writing is never allowed, and the file system says why it refused.
  MeshFileSystem files(obj, kMaxMeshFileBytes);
  CHECK(files.Open(obj.c_str(), "wb") == nullptr);
  CHECK(files.Open((dir.path / "mesh/materials.mtl").c_str(), "rb") == nullptr);
  REQUIRE(files.refusals().size() == 2);
  CHECK(files.refusals()[1].find("not a regular file") != std::string::npos);
}

TEST_CASE("zip archives (3MF, ZAE) are refused before assimp's unzipper sees them", "[hostile]") {
  TempDir dir;
  // assimp's unzipper and 3MF reader abort the process (failed assertions)
  // on archives fuzz_mesh_files made in seconds: an entry whose CRC is not
  // its data's, a package without its model. Refused by name, by a local
  // header at the start, or by the end-of-directory record minizip looks
  // for near the end (the first bytes of the second finding were "NK").
  const std::string record("PK\x05\x06", 4);
  const std::string header("PK\x03\x04", 4);
  for (const auto& [name, content] :
       std::vector<std::pair<std::string, std::string>>{{"model.3mf", "not even a zip"},
                                                        {"header.stl", header + std::string(100, '\0')},
                                                        {"record.obj", "v 0 0 0\n" + record + std::string(18, '\0')},
                                                        {"scene.zae", header}}) {
    const std::string error = loadError(dir.write(name, content));
    INFO(name << ": " << error);
    CHECK(error.find("not read (unzip it") != std::string::npos);
  }
  // The two findings themselves, as fuzz_mesh_files wrote them (its corpus).
  for (const char* finding : {"zip_corrupt_entry", "zip_without_model"}) {
    const std::string input = test::readText(test::sourceDir() / "fuzz/corpus/fuzz_mesh_files" / finding);
    const std::size_t meshBytes =
        static_cast<unsigned char>(input[2]) | (static_cast<std::size_t>(static_cast<unsigned char>(input[3])) << 8);
    const std::string error = loadError(dir.write(std::string(finding) + ".3mf", input.substr(4, meshBytes)));
    CHECK(error.find("zipped mesh formats are not read") != std::string::npos);
  }
  // A file a zip reader would not take for an archive still loads.
  CHECK(loadMeshFile(dir.write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")).triangles.size() == 1);
}

TEST_CASE("work that grows faster than the input: nested SRDF groups, huge polygon faces", "[hostile]") {
  TempDir dir;
  // g0 holds joint j0; every g(i) names g(i-1) twice and adds j(i): walked
  // naively, g39 is 2^40 group visits. Expanded once each, it is 40 joints.
  std::string srdf = "<robot name=\"r\">\n<group name=\"g0\"><joint name=\"j0\"/></group>\n";
  for (int i = 1; i < 40; ++i)
    srdf += fmt::format(
        "<group name=\"g{0}\"><group name=\"g{1}\"/><joint name=\"j{0}\"/><group name=\"g{1}\"/></group>\n", i, i - 1);
  srdf += "</robot>\n";
  const auto file = dir.write("r.srdf", srdf);
  const auto joints = readSrdfGroupJoints(file, "g39", {});
  REQUIRE(joints.size() == 40);
  for (int i = 0; i < 40; ++i) CHECK(joints[static_cast<std::size_t>(i)] == fmt::format("j{}", i));

  // Two groups of one name: MoveIt keeps one, so prmkit refuses, naming both lines.
  const auto twice = dir.write("twice.srdf",
                               "<robot name=\"r\">\n<group name=\"arm\"><joint name=\"a\"/></group>\n"
                               "<group name=\"arm\"><joint name=\"b\"/></group>\n</robot>\n");
  REQUIRE_THROWS_WITH(readSrdfGroupJoints(twice, "arm", {}),
                      Catch::Contains("twice.srdf:3: a second group named 'arm' (the first is at line 2)"));
  // A group inside itself, named with the line that closes the cycle.
  const auto cycle = dir.write("cycle.srdf",
                               "<robot name=\"r\">\n<group name=\"a\"><group name=\"b\"/></group>\n"
                               "<group name=\"b\">\n<group name=\"a\"/></group>\n</robot>\n");
  REQUIRE_THROWS_WITH(readSrdfGroupJoints(cycle, "a", {}), Catch::Contains("cycle.srdf:4: group 'a' contains itself"));

  // One OBJ face of 200 000 corners: ear clipping would take quadratic time.
  auto polygonObj = [&](const std::string& name, int corners) {
    std::string text;
    for (int i = 0; i < corners; ++i) {
      const double angle = 2 * 3.141592653589793 * i / corners;
      text += fmt::format("v {} {} 0\n", std::cos(angle), std::sin(angle));
    }
    text += "f";
    for (int i = 1; i <= corners; ++i) text += fmt::format(" {}", i);
    return dir.write(name, text + "\n");
  };
  const std::string error = loadError(polygonObj("huge.obj", 200000));
  CHECK(error.find("a face has 200000 corners, more than 10000") != std::string::npos);
  // A face well inside the bound is triangulated as before.
  CHECK(loadMeshFile(polygonObj("disc.obj", 500)).triangles.size() == 498);
}

TEST_CASE("YAML: nodes are counted before the tree is built, one document, names as keys", "[hostile][slow]") {
  TempDir dir;
  // Files of one-byte scalars just past and just under the node limit: the
  // first is refused by the count, so its process never holds yaml-cpp's
  // tree (about 550 bytes a node); the second builds it, then is refused for
  // its content. The peaks are compared with each other, which holds under
  // sanitizers too (their shadow memory raises both).
  auto validateInChild = [&](std::size_t nodes, const std::string& name) {
    std::string many = "name: x\nrobot: {type: rigid2d}\nplanner: [0";
    for (std::size_t i = 0; i < nodes; ++i) many += ",0";
    const auto file = dir.write(name + ".yaml", many + "]\n");
    const fs::path output = dir.path / (name + ".txt");
    std::vector<std::string> args{PRMKIT_BINARY, "validate", file.string()};
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      const int fd = ::open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    int status = 0;
    rusage usage{};
    REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 2);
    return std::pair{test::readText(output), static_cast<long>(usage.ru_maxrss)};  // kilobytes
  };
  const auto [overMessage, overPeak] = validateInChild(kMaxYamlNodes, "over");
  CHECK(overMessage.find(fmt::format("more than {} YAML nodes", kMaxYamlNodes)) != std::string::npos);
  const auto [underMessage, underPeak] = validateInChild(kMaxYamlNodes - 20, "under");
  CHECK(underMessage.find("YAML nodes") == std::string::npos);
  INFO("peak resident memory: " << overPeak << " kB refused by the count, " << underPeak << " kB with the tree");
  CHECK(2 * overPeak < underPeak);

  const auto second = dir.write("second.yaml", kProblem + "---\nname: other\n");
  Run run = cli({"validate", second.string()});
  CHECK(run.code == 2);
  CHECK(run.err.find("second.yaml:12:1: a second YAML document") != std::string::npos);

  const auto sequenceKey = dir.write("key.yaml", kProblem + "? [a, b]\n: 1\n");
  run = cli({"validate", sequenceKey.string()});
  CHECK(run.code == 2);
  CHECK(run.err.find("key.yaml:12:3: a sequence used as a key; expected a name") != std::string::npos);

  // --set: the value is quoted cut short, and a bad part of it is placed at the --set, not at a line of the file.
  const auto problem = dir.write("p.yaml", kProblem);
  run = cli({"validate", problem.string(), "--set", "planner.type=" + std::string(5000, 'x')});
  CHECK(run.code == 2);
  CHECK(run.err.find(std::string(200, 'x')) == std::string::npos);
  CHECK(run.err.size() < 2000);  // the excerpt and the list of planners
  run = cli({"validate", problem.string(), "--set", "robot.geometry={box: [1, -1, 1]}"});
  CHECK(run.code == 2);
  CHECK(run.err.find("--set robot.geometry") != std::string::npos);
  CHECK(run.err.find("p.yaml:1:") == std::string::npos);
  // A key the --set adds is placed at it too, whether its map is in the file or added with it.
  const auto withPlanner = dir.write("q.yaml", kProblem + "planner: {type: prm}\n");
  run = cli({"validate", withPlanner.string(), "--set", "planner.typ=prm"});
  CHECK(run.code == 2);
  CHECK(run.err.find("--set planner.typ: unknown key 'typ' in 'planner' (did you mean 'type'?") != std::string::npos);
  run = cli({"validate", problem.string(), "--set", "planner.lazy_prm.joins=5"});
  CHECK(run.code == 2);
  CHECK(run.err.find("--set planner.lazy_prm.joins: unknown key 'joins' in 'planner.lazy_prm'") != std::string::npos);
  run = cli({"validate", problem.string(), "--set", "planner.type=[a, b]\n---\nc"});
  CHECK(run.code == 2);
  CHECK(run.err.find("a second YAML document") != std::string::npos);
}

TEST_CASE("symlinks and special files planted in an output folder are replaced or refused, never followed",
          "[hostile]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kProblem);
  const auto victim = dir.write("victim.txt", "precious\n");
  const fs::path out = dir.path / "out";
  fs::create_directories(out);
  // Every file plan writes, planted as a symlink to the victim, plus guesses at temporaries.
  for (const char* name : {"path.csv", "path.txt", "stats.json", "scene.svg", "scene.html", ".prmkit-commit",
                           ".prmkit-tmp-0000000000000000"})
    fs::create_symlink(victim, out / name);
  Run run = cli({"plan", problem.string(), "--out", out.string(), "--planner", "prm", "--seed", "3"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK(test::readText(victim) == "precious\n");
  for (const char* name : {"path.csv", "path.txt", "stats.json", "scene.svg", "scene.html"})
    CHECK(fs::is_regular_file(fs::symlink_status(out / name)));
  // Nothing of the commit is left behind: no journal, no temporary.
  CHECK(entries(out) ==
        std::vector<std::string>{".prmkit.lock", "path.csv", "path.txt", "scene.html", "scene.svg", "stats.json"});

  // A lock file planted as a symlink (or a FIFO) is refused before any work.
  const fs::path locked = dir.path / "locked";
  fs::create_directories(locked);
  fs::create_symlink(dir.path / "elsewhere.lock", locked / ".prmkit.lock");
  run = cli({"plan", problem.string(), "--out", locked.string()});
  CHECK(run.code == 2);
  CHECK(run.err.find(".prmkit.lock") != std::string::npos);
  CHECK(run.out.empty());
  CHECK(!fs::exists(dir.path / "elsewhere.lock"));
  const fs::path piped = dir.path / "piped";
  fs::create_directories(piped);
  REQUIRE(::mkfifo((piped / ".prmkit.lock").c_str(), 0644) == 0);
  CHECK(cli({"plan", problem.string(), "--out", piped.string()}).code == 2);
  CHECK_THROWS_AS(FolderLock(piped, FolderLock::Wait::No), InputError);

  // An empty name and a dangling symlink are refused before any work.
  run = cli({"plan", problem.string(), "--out", ""});
  CHECK(run.code == 2);
  CHECK(run.out.empty());
  fs::create_symlink(dir.path / "nowhere", dir.path / "dangling");
  run = cli({"plan", problem.string(), "--out", (dir.path / "dangling").string()});
  CHECK(run.code == 2);
  CHECK(run.err.find("a symlink to nothing") != std::string::npos);
  CHECK(run.out.empty());
  CHECK(!fs::exists(dir.path / "nowhere"));
  // A file output is a name in its folder: a dangling symlink there is replaced, its target never made.
  run = cli({"check", problem.string(), "--random", "3", "--out", (dir.path / "dangling").string()});
  CHECK(run.code == 0);
  CHECK(fs::is_regular_file(fs::symlink_status(dir.path / "dangling")));
  CHECK(!fs::exists(dir.path / "nowhere"));

  // Single files (check --out) replace a planted symlink too.
  fs::create_symlink(victim, dir.path / "edges.csv");
  run = cli({"check", problem.string(), "--random", "3", "--out", (dir.path / "edges.csv").string()});
  REQUIRE(run.code == 0);
  CHECK(test::readText(victim) == "precious\n");
  CHECK(fs::is_regular_file(fs::symlink_status(dir.path / "edges.csv")));
}

TEST_CASE("a sweep's runs file and report folders planted as symlinks are refused or replaced", "[hostile]") {
  TempDir dir;
  const auto sweep = writeOneProblemSweep(dir, 1);
  const auto victim = dir.write("victim.txt", "precious\n");
  const fs::path outside = dir.path / "outside";
  fs::create_directories(outside);
  const fs::path out = dir.path / "out";
  fs::create_directories(out);
  fs::create_symlink(victim, out / "runs.jsonl");
  Run run = cli({"sweep", sweep.string(), "--out", out.string(), "--no-plots"});
  CHECK(run.code == 2);
  CHECK(run.err.find("runs.jsonl: not a regular file") != std::string::npos);
  CHECK(test::readText(victim) == "precious\n");

  fs::remove(out / "runs.jsonl");
  fs::create_symlink(outside, out / "ompl");  // the OMPL benchmark logs' folder
  fs::create_symlink(victim, out / "summary.md");
  run = cli({"sweep", sweep.string(), "--out", out.string(), "--no-plots"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK(test::readText(victim) == "precious\n");
  CHECK(fs::is_empty(outside));
  CHECK(fs::is_directory(fs::symlink_status(out / "ompl")));
  CHECK(!fs::is_empty(out / "ompl"));
}

TEST_CASE(
    "output folders, round four: a planted folder, a hard link, a lock held past the limit, duplicate and huge "
    "records",
    "[hostile]") {
  TempDir dir;
  const auto problem = dir.write("p.yaml", kProblem);
  const fs::path out = dir.path / "out";

  // A folder planted at an output file's name: refused before planning, no
  // journal or temporary left, and the folder works again once it is gone.
  fs::create_directories(out / "stats.json");
  Run run = cli({"plan", problem.string(), "--out", out.string()});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("stats.json' is a folder where this run writes a file"));
  CHECK_THAT(run.out, !Catch::Contains("problem "));  // nothing planned
  for (const auto& entry : fs::directory_iterator(out)) {
    INFO(entry.path());
    CHECK((entry.path().filename() == "stats.json" || entry.path().filename() == ".prmkit.lock"));
  }
  fs::remove(out / "stats.json");
  run = cli({"plan", problem.string(), "--out", out.string()});
  INFO(run.err);
  CHECK(run.code == 0);

  // A lock another process holds is waited for within the run's limit, not for ever.
  {
    const int held = ::open((out / ".prmkit.lock").c_str(), O_RDWR);
    REQUIRE(held >= 0);
    REQUIRE(::flock(held, LOCK_EX) == 0);
    run = cli({"plan", problem.string(), "--time-limit", "1", "--out", out.string()});
    ::close(held);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains("another prmkit run held this folder") &&
                            Catch::Contains("until this run's time limit"));
  }

  // runs.jsonl as a hard link to a file elsewhere: refused, never appended to.
  const auto sweep = writeOneProblemSweep(dir, 2);
  const fs::path sweepOut = dir.path / "sweep";
  fs::create_directories(sweepOut);
  const auto victim = dir.write("victim.jsonl", "");
  fs::create_hard_link(victim, sweepOut / "runs.jsonl");
  run = cli({"sweep", sweep.string(), "--resume", "--out", sweepOut.string(), "--no-plots"});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("has 2 hard links"));
  CHECK(fs::file_size(victim) == 0);
  fs::remove(sweepOut / "runs.jsonl");

  // --resume refuses a record written twice, as merge does.
  REQUIRE(cli({"sweep", sweep.string(), "--out", sweepOut.string(), "--no-plots"}).code == 0);
  const std::string records = test::readText(sweepOut / "runs.jsonl");
  const std::string first = records.substr(0, records.find('\n') + 1);
  dir.write("sweep/runs.jsonl", records + first);
  run = cli({"sweep", sweep.string(), "--resume", "--out", sweepOut.string(), "--no-plots"});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("twice"));

  // A record carrying a huge JSON array is refused by its size, before it is parsed.
  std::string huge = first.substr(0, first.size() - 2) + ", \"padding\": [";
  for (int i = 0; i < 400000; ++i) huge += "[[[1]]],";
  huge += "0]}\n";
  dir.write("sweep/runs.jsonl", first + huge);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"sweep", sweep.string(), "--resume", "--out", sweepOut.string(), "--no-plots"},
        std::vector<std::string>{"merge", sweep.string(), sweepOut.string(), "--out", (dir.path / "merged").string(),
                                 "--no-plots"}}) {
    run = cli(args);
    INFO(args.front() << ": " << run.err);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains("runs.jsonl:2: a record of") && Catch::Contains("bytes, more than the"));
  }
}

TEST_CASE("the local Slurm helper refuses folder names slurm.conf cannot hold and stops only what it started",
          "[hostile]") {
  TempDir dir;
  const std::string script = (test::sourceDir() / "scripts" / "slurm-local.sh").string();
  const fs::path spaced = dir.path / "a b#c";
  const auto [refusedCode, refusedText] =
      test::run({"/bin/bash", script, "start", spaced.string()}, dir.path / "log", true);
  CHECK(refusedCode == 2);
  CHECK_THAT(refusedText, Catch::Contains("has characters slurm.conf cannot hold"));
  CHECK_FALSE(fs::exists(spaced / "slurm.conf"));
  // A pid file naming a live process that the helper did not start: left alone.
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  const fs::path folder = dir.path / "cluster";
  fs::create_directories(folder);
  dir.write("cluster/slurmd.pid", fmt::format("{} 1\n", child));
  dir.write("cluster/munged.pid", fmt::format("{}\n", child));
  CHECK(test::run({"/bin/bash", script, "stop", folder.string()}, dir.path / "log", true).first == 0);
  CHECK(::kill(child, 0) == 0);  // still alive
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}

TEST_CASE("a run killed between two renames is completed by the next lock holder, dead temporaries go", "[hostile]") {
  TempDir dir;
  const fs::path out = dir.path / "out";
  {
    const FolderLock lock(out, FolderLock::Wait::No);
    OutputFiles first;
    for (const char* name : {"a.txt", "b.txt", "c.txt", "sub/d.txt"}) first.add(name, "old\n");
    first.commit(lock);
  }
  // A child commits a new set and is killed after its first rename.
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const FolderLock lock(out, FolderLock::Wait::No);
    OutputFiles second;
    for (const char* name : {"a.txt", "b.txt", "c.txt", "sub/d.txt"}) second.add(name, "new\n");
    second.remove("stale.txt");
    second.setAfterRenameForTests([](std::size_t renamed) {
      if (renamed == 1) ::raise(SIGKILL);
    });
    second.commit(lock);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(WTERMSIG(status) == SIGKILL);
  // Killed mid-commit: one file renamed, the journal says what is left.
  CHECK(test::readText(out / "a.txt") == "new\n");
  CHECK(test::readText(out / "b.txt") == "old\n");
  CHECK(fs::exists(out / std::string(kCommitJournalName)));
  // A temporary of a writer that died before its journal, and one a live writer holds.
  const auto dead = out / (std::string(kTemporaryPrefix) + "dead");
  std::ofstream(dead) << "half";
  const auto live = out / (std::string(kTemporaryPrefix) + "live");
  const int liveFd = ::open(live.c_str(), O_WRONLY | O_CREAT, 0644);
  REQUIRE(liveFd >= 0);
  REQUIRE(::flock(liveFd, LOCK_SH) == 0);
  std::ofstream(out / "stale.txt") << "from an older run\n";
  {
    const FolderLock next(out, FolderLock::Wait::No);
    for (const char* name : {"a.txt", "b.txt", "c.txt", "sub/d.txt"}) CHECK(test::readText(out / name) == "new\n");
    CHECK(!fs::exists(out / "stale.txt"));
    CHECK(!fs::exists(out / std::string(kCommitJournalName)));
    CHECK(!fs::exists(dead));
    CHECK(fs::exists(live));
  }
  ::close(liveFd);

  // A journal planted by someone else cannot name anything outside the folder.
  std::ofstream(out / std::string(kCommitJournalName)) << "prmkit commit 1\nremove\t../victim.txt\nend\n";
  std::ofstream(dir.path / "victim.txt") << "precious\n";
  { const FolderLock again(out, FolderLock::Wait::No); }
  CHECK(test::readText(dir.path / "victim.txt") == "precious\n");
  CHECK(!fs::exists(out / std::string(kCommitJournalName)));
}

TEST_CASE("a sweep refuses one problem file listed twice under two names", "[hostile]") {
  TempDir dir;
  dir.write("p.yaml", kProblem);
  fs::create_symlink(dir.path / "p.yaml", dir.path / "alias.yaml");
  for (const std::string second : {"./p.yaml", "alias.yaml", "sub/../p.yaml"}) {
    fs::create_directories(dir.path / "sub");
    const auto sweep = dir.write("s.yaml", fmt::format(R"(name: s
problems: [p.yaml, {}]
planners: [{{type: prm}}]
checkers: [{{type: discrete}}]
seeds: 1
)",
                                                       second));
    const Run run = cli({"sweep", sweep.string(), "--out", (dir.path / "out").string(), "--no-plots"});
    INFO(second);
    CHECK(run.code == 2);
    CHECK(run.err.find(fmt::format("'{}' is the problem file listed as 'p.yaml' at", second)) != std::string::npos);
    CHECK(!fs::exists(dir.path / "out/runs.jsonl"));
  }
}

TEST_CASE("URDF links form a tree: a second parent or a loop is refused at its joint, with both joints named",
          "[hostile]") {
  TempDir dir;
  auto urdf = [&](const std::string& name, const std::string& joints) {
    std::string text = "<robot name=\"r\">\n";
    for (const char* link : {"l1", "l2", "l3", "l4"})
      text += fmt::format(
          "<link name=\"{}\"><collision><geometry><box size=\"0.1 0.1 0.1\"/></geometry></collision></link>\n", link);
    return dir.write(name, text + joints + "</robot>\n");
  };
  auto joint = [](const std::string& name, const std::string& parent, const std::string& child) {
    return fmt::format(
        "<joint name=\"{}\" type=\"revolute\"><parent link=\"{}\"/><child link=\"{}\"/><axis xyz=\"0 0 1\"/>"
        "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>\n",
        name, parent, child);
  };
  // A loop closed by a fixed joint from the last link back to the second:
  // urdfdom links it into the tree, and a walk from the root never ends.
  const auto closed = urdf("closed.urdf", joint("j1", "l1", "l2") + joint("j2", "l2", "l3") + joint("j3", "l3", "l4") +
                                              "<joint name=\"close\" type=\"fixed\"><parent link=\"l4\"/>"
                                              "<child link=\"l2\"/></joint>\n");
  REQUIRE_THROWS_WITH(loadUrdfRobot(closed),
                      Catch::Contains("closed.urdf:9: joint 'close' gives link 'l2' a second parent joint ('j1', "
                                      "line 6)"));
  // A loop in which every link has one parent: a joint whose child is its own ancestor.
  const auto loop = urdf("loop.urdf", joint("j1", "l1", "l2") + joint("j3", "l4", "l3") + joint("j4", "l3", "l4"));
  REQUIRE_THROWS_WITH(loadUrdfRobot(loop), Catch::Contains("its own ancestor (a kinematic loop"));
  // The same arm without the closing joint is a tree and loads.
  const auto tree = urdf("tree.urdf", joint("j1", "l1", "l2") + joint("j2", "l2", "l3") + joint("j3", "l3", "l4"));
  CHECK(loadUrdfRobot(tree)->dof() == 3);
  const auto problem = dir.write("arm.yaml", R"(name: arm
robot: {type: urdf, file: closed.urdf}
scene: {obstacles: []}
start: [0, 0, 0]
goal: [0.5, 0.5, 0.5]
)");
  const Run run = cli({"validate", problem.string()});
  CHECK(run.code == 2);
  CHECK(run.err.find("joint 'close' gives link 'l2' a second parent joint") != std::string::npos);
}

TEST_CASE("generators at their documented bounds: one past is refused, at the bound setup stops at the time limit",
          "[hostile][slow]") {
  // Bounds that fit memory: a mesh of 10^6 triangles is about 0.7 GB once
  // built (10^7 ran FCL's BVH out of 4 GB).
  SpringParams spring;
  spring.sides = 16;
  spring.segments = static_cast<int>(kMaxMeshTriangles / (2 * 16)) + 1;
  REQUIRE_THROWS_WITH(springMesh(spring), Catch::Contains("spring segments (with these sides) is at most 31250"));
  GearParams gear;
  gear.teeth = 31251;
  REQUIRE_THROWS_WITH(gearMesh(gear), Catch::Contains("gear teeth is at most 31250"));
  RandomBoxesParams boxes;
  boxes.count = 40001;
  REQUIRE_THROWS_WITH(randomObstacleMeshes(boxes), Catch::Contains("random obstacles count is at most 40000"));
  // At the bound, a 10^6-triangle spring: its hull's concavity alone once
  // took minutes in one uninterruptible step. With a 1 s limit, the run ends
  // as not solved (time limit), naming the setup step, exit 1: not a crash,
  // not out of memory, not exit 3.
  TempDir dir;
  const auto problem = dir.write("spring.yaml", R"(robot:
  type: rigid3d
  geometry: {box: [0.1, 0.1, 0.1]}
bounds: {lower: [-5, -5, -5], upper: [5, 5, 5]}
scene:
  obstacles:
    - {name: s, generator: {type: spring, turns: 10, segments: 31250, sides: 16}}
start: {xyz: [-4, -4, -4], rpy: [0, 0, 0]}
goal: {xyz: [4, 4, 4], rpy: [0, 0, 0]}
limits: {time: 1}
)");
  const test::Run run = test::cli({"plan", problem.string(), "--out", (dir.path / "out").string()});
  INFO(run.out << run.err);
  REQUIRE(run.code == 1);
  REQUIRE_THAT(run.out + run.err, Catch::Contains("not solved (time limit)") && Catch::Contains("of setup"));
}
