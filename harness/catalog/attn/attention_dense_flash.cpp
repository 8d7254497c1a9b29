// Catalog entry: attention_dense_flash - attention's spec under the CUDA
// variant's name, plus the claim that it equals attention bit for bit.
#include "harness/catalog/attn/attn_entry.h"

namespace vt::conform {

OpSpec Spec_attention_dense_flash() { return attn_entry::DenseAttentionSpec("attention_dense_flash"); }

}  // namespace vt::conform
