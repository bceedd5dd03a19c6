int ggml_kai_check();

int main() { return ggml_kai_check(); }
