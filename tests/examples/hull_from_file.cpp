#include "hull_from_file.hpp"

#include <keel/mass_properties.hpp>

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <stdexcept>

namespace game {
namespace {

/// Appends `mesh`'s triangles, moved to the file's frame by `toFile`.
void appendMesh(const aiMesh& mesh, const aiMatrix4x4& toFile, btTriangleMesh& out) {
  // Each aiMesh numbers its vertices from 0: offset its indices by where its
  // first vertex lands in `out`. findOrAddVertex(p, false) appends without
  // searching for duplicates (keel::Hull welds them).
  int first = 0;
  for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
    const aiVector3D p = toFile * mesh.mVertices[v];
    const int index = out.findOrAddVertex(btVector3(btScalar(p.x), btScalar(p.y), btScalar(p.z)), false);
    if (v == 0) first = index;
  }
  for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
    const aiFace& face = mesh.mFaces[f];
    if (face.mNumIndices != 3) continue;  // a point or a line: aiProcess_Triangulate leaves no polygons
    out.addTriangleIndices(first + int(face.mIndices[0]), first + int(face.mIndices[1]), first + int(face.mIndices[2]));
  }
}

int appendNode(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parentToFile, const std::string& object,
               bool inObject, btTriangleMesh& out) {
  const aiMatrix4x4 toFile = parentToFile * node.mTransformation;
  inObject = inObject || object.empty() || object == node.mName.C_Str();
  int meshes = 0;
  for (unsigned m = 0; inObject && m < node.mNumMeshes; ++m, ++meshes)
    appendMesh(*scene.mMeshes[node.mMeshes[m]], toFile, out);
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    meshes += appendNode(scene, *node.mChildren[c], toFile, object, inObject, out);
  return meshes;
}

}  // namespace

int appendObject(const aiScene& scene, const std::string& object, btTriangleMesh& out) {
  return appendNode(scene, *scene.mRootNode, aiMatrix4x4(), object, false, out);
}

LoadedHull loadHull(const std::string& path, const std::string& object, const keel::HullOptions& options) {
  Assimp::Importer importer;
  // The OBJ reader starts a new aiMesh at every material change ("usemtl"):
  // media/rowboat.obj's hull, painted in three colours, comes as 89 meshes.
  const aiScene* scene = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene || !scene->mRootNode) throw std::runtime_error("cannot read '" + path + "': " + importer.GetErrorString());
  btTriangleMesh mesh;
  LoadedHull loaded;
  loaded.meshCount = appendObject(*scene, object, mesh);
  if (mesh.getNumTriangles() == 0) throw std::runtime_error("'" + path + "' has no triangles in '" + object + "'");
  // Validated in the file's frame, then moved so that the volume centroid,
  // the centre of mass of a uniformly dense boat, is the origin.
  const keel::Hull inFile(mesh, options);
  loaded.repair = inFile.repair();
  loaded.centreOfMass_m = inFile.centroid_m();
  loaded.hull = keel::toBodyFrame(inFile, btTransform(btMatrix3x3::getIdentity(), loaded.centreOfMass_m), options);
  return loaded;
}

}  // namespace game
