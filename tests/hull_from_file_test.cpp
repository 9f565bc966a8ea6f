// The assimp example of docs/integration.md ("A hull from a mesh file"): the
// rowboat of media/, which assimp splits into one mesh per material change, joined
// and re-indexed into one btTriangleMesh that makes a valid keel::Hull.
#include "hull_from_file.hpp"
#include "test_hulls.hpp"

#include <gtest/gtest.h>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace keel::test {
namespace {

const std::string kRowboat = std::string(KEEL_MEDIA_DIR) + "/rowboat.obj";
constexpr int kRowboatHullTriangles = 880;  // the "f" lines of media/rowboat.obj's object "hull"
constexpr int kRowboatHullMeshes = 89;      // its "usemtl" lines: assimp starts a mesh at each

TEST(HullFromFile, RowboatsMaterialMeshesJoinIntoOneValidHull) {
  const game::LoadedHull loaded = game::loadHull(kRowboat);
  EXPECT_EQ(loaded.meshCount, kRowboatHullMeshes);
  ASSERT_TRUE(loaded.hull);
  EXPECT_EQ(loaded.hull->triangles().size(), std::size_t(kRowboatHullTriangles));
  EXPECT_EQ(loaded.hull->partCount(), 1u);
  EXPECT_EQ(loaded.hull->droppedTriangleCount(), 0u);
  // In the centre-of-mass frame of a uniform boat: the volume centroid is the origin.
  EXPECT_LT(loaded.hull->centroid_m().length(), 1e-5f);
  EXPECT_GT(loaded.hull->volume_m3(), 0.5f);
  // The file's origin is on the design waterline amidships (media/rowboat.obj's header):
  // the centroid of the whole hull lies near it, above the keel.
  EXPECT_LT(loaded.centreOfMass_m.length(), 0.5f);
}

TEST(HullFromFile, TheMeshesMustBeReindexed) {
  Assimp::Importer importer;
  const aiScene* scene = importer.ReadFile(kRowboat, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  ASSERT_TRUE(scene);
  btTriangleMesh joined;
  EXPECT_EQ(game::appendObject(*scene, "hull", joined), kRowboatHullMeshes);
  EXPECT_EQ(joined.getNumTriangles(), kRowboatHullTriangles);
  EXPECT_NO_THROW(Hull{joined});
  // Each mesh's own indices, not offset: they all point into the first
  // mesh's vertices, and the surface is no closed hull.
  btTriangleMesh naive;
  int vertices = 0;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh& mesh = *scene->mMeshes[m];
    for (unsigned v = 0; v < mesh.mNumVertices; ++v, ++vertices)
      naive.findOrAddVertex(btVector3(mesh.mVertices[v].x, mesh.mVertices[v].y, mesh.mVertices[v].z), false);
    for (unsigned f = 0; f < mesh.mNumFaces; ++f)
      naive.addTriangleIndices(int(mesh.mFaces[f].mIndices[0]), int(mesh.mFaces[f].mIndices[1]),
                               int(mesh.mFaces[f].mIndices[2]));
  }
  EXPECT_GT(vertices, 0);
  try {
    Hull{naive};
    ADD_FAILURE() << "the meshes' own indices made a hull";
  } catch (const HullError& e) {  // the message names the likely cause
    EXPECT_NE(std::string(e.what()).find("without offsetting each one's indices"), std::string::npos) << e.what();
  }
  EXPECT_THROW(game::loadHull(kRowboat, "no such object"), std::runtime_error);
  EXPECT_THROW(game::loadHull(std::string(KEEL_MEDIA_DIR) + "/missing.obj"), std::runtime_error);
}

// The harbour's boats, each split into four sections and along its
// centreline a millimetre off the plane of symmetry (keel/hull_slice.hpp:
// not through the sections' cap centres): every piece closes, and the
// pieces hold the hull's volume less what simplifying them takes.
TEST(HullFromFile, HarbourBoatsSplitAlongTheirCentreline) {
  for (const char* kind : {"speedboat", "rowboat", "tug", "barge", "catamaran"}) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(std::string(KEEL_MEDIA_DIR "/") + kind + ".obj", aiProcess_Triangulate);
    ASSERT_NE(scene, nullptr) << kind;
    btTriangleMesh mesh;
    game::appendObject(*scene, "hull", mesh);
    const Hull hull(mesh);
    const btScalar aft = hull.boundsMin().x(), fore = hull.boundsMax().x();
    std::vector<btScalar> at;
    for (int i = 1; i < 4; ++i) at.push_back(aft + (fore - aft) * btScalar(i) / 4);
    std::vector<Compartment> rooms;
    ASSERT_NO_THROW(
        rooms = sideCompartments(hull, btVector3(1, 0, 0), at, btVector3(0, 0, 1), btScalar(0.001), btScalar(0.01)))
        << kind;
    double sum = 0;
    for (const Compartment& c : rooms) sum += double(c.space->volume_m3());
    EXPECT_NEAR(sum, hull.volume_m3(), 0.01 * double(hull.area_m2())) << kind;  // simplifiedHull's bound
    // The harbour demo gives its boats these compartments: they fit the hull.
    World w;
    WaterAction boat(w.addBox(btVector3(1, 1, 1), 1000, btTransform::getIdentity()), std::make_shared<const Hull>(mesh),
                     std::make_shared<FlatSurface>());
    try {
      boat.setCompartments(rooms);
    } catch (const std::invalid_argument& e) {
      ADD_FAILURE() << kind << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace keel::test
