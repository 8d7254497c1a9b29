// Prints the CUDA devices this process can see, or why there are none.
// Exit status 0 with at least one device, 2 without.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void AddOne(int* v) { *v += 1; }

int main() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    std::printf("vt-cuda-probe: no CUDA device (%s)\n",
                err == cudaSuccess ? "count is 0" : cudaGetErrorString(err));
    return 2;
  }
  for (int i = 0; i < count; ++i) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, i);
    std::printf("vt-cuda-probe: device %d: %s sm_%d%d\n", i, prop.name, prop.major, prop.minor);
  }
  int* d = nullptr;
  int h = 41;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpy(d, &h, sizeof(int), cudaMemcpyHostToDevice);
  AddOne<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("vt-cuda-probe: kernel round trip %s\n", h == 42 ? "ok" : "FAILED");
  return h == 42 ? 0 : 1;
}
