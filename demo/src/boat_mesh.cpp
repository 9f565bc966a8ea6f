#include "boat_mesh.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <map>
#include <numeric>
#include <stdexcept>
#include <tuple>

namespace demo {
namespace {

/// Union-find over triangle corners, to split the hull into its closed parts.
class Parts {
 public:
  explicit Parts(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::size_t(0)); }
  std::size_t find(std::size_t i) {
    while (parent_[i] != i) i = parent_[i] = parent_[parent_[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[find(a)] = find(b); }

 private:
  std::vector<std::size_t> parent_;
};

/// Groups the hull's corners into connected parts: corners at the same
/// position, or in the same triangle, belong together.
std::vector<std::vector<btVector3>> connectedParts(const std::vector<btVector3>& corners) {
  Parts parts(corners.size());
  std::map<std::tuple<float, float, float>, std::size_t> firstAt;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    if (i % 3 != 0) parts.join(i, i - i % 3);
    const auto key = std::make_tuple(float(corners[i].x()), float(corners[i].y()), float(corners[i].z()));
    const auto [it, fresh] = firstAt.emplace(key, i);
    if (!fresh) parts.join(i, it->second);
  }
  std::map<std::size_t, std::vector<btVector3>> byRoot;
  for (const auto& [key, i] : firstAt) byRoot[parts.find(i)].push_back(corners[i]);
  std::vector<std::vector<btVector3>> out;
  for (auto& [root, points] : byRoot) out.push_back(std::move(points));
  return out;
}

MeshPart convert(const aiMesh& mesh, const aiScene& scene) {
  MeshPart part;
  const aiMaterial* material = scene.mMaterials[mesh.mMaterialIndex];
  aiString name;
  material->Get(AI_MATKEY_NAME, name);
  part.material = name.C_Str();
  aiColor3D kd(0.7f, 0.7f, 0.7f);
  material->Get(AI_MATKEY_COLOR_DIFFUSE, kd);
  part.colour = {kd.r, kd.g, kd.b};
  for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
    part.positions.insert(part.positions.end(), {mesh.mVertices[v].x, mesh.mVertices[v].y, mesh.mVertices[v].z});
    part.normals.insert(part.normals.end(), {mesh.mNormals[v].x, mesh.mNormals[v].y, mesh.mNormals[v].z});
  }
  for (unsigned f = 0; f < mesh.mNumFaces; ++f)
    if (mesh.mFaces[f].mNumIndices == 3)
      part.indices.insert(part.indices.end(), mesh.mFaces[f].mIndices, mesh.mFaces[f].mIndices + 3);
  return part;
}

}  // namespace

BoatMesh loadBoatMesh(const std::string& path) {
  Assimp::Importer importer;
  // Smooth the curved hull but keep the deck edge and the boxes' corners sharp.
  importer.SetPropertyFloat(AI_CONFIG_PP_GSN_MAX_SMOOTHING_ANGLE, 40.0f);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals);
  if (!scene || !scene->mRootNode)
    throw std::runtime_error("cannot load boat mesh '" + path + "': " + importer.GetErrorString());
  BoatMesh boat;
  // The OBJ importer makes one child node per object ("o hull", "o cabin"...),
  // one mesh per material within it; the file's frame is the node frame.
  for (unsigned c = 0; c < scene->mRootNode->mNumChildren; ++c) {
    const aiNode& node = *scene->mRootNode->mChildren[c];
    const bool isHull = std::string(node.mName.C_Str()) == "hull";
    for (unsigned m = 0; m < node.mNumMeshes; ++m) {
      const aiMesh& mesh = *scene->mMeshes[node.mMeshes[m]];
      boat.parts.push_back(convert(mesh, *scene));
      boat.parts.back().object = node.mName.C_Str();
      if (!isHull) continue;
      for (unsigned f = 0; f < mesh.mNumFaces; ++f)
        for (unsigned k = 0; k < mesh.mFaces[f].mNumIndices && mesh.mFaces[f].mNumIndices == 3; ++k) {
          const aiVector3D& p = mesh.mVertices[mesh.mFaces[f].mIndices[k]];
          boat.hullTriangles.emplace_back(btScalar(p.x), btScalar(p.y), btScalar(p.z));
        }
    }
  }
  if (boat.hullTriangles.empty()) throw std::runtime_error("boat mesh '" + path + "' has no object named 'hull'");
  boat.hullPartPoints = connectedParts(boat.hullTriangles);
  return boat;
}

}  // namespace demo
