int dnnl_kai_check();

int main() { return dnnl_kai_check(); }
