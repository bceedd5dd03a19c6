int mlas_kai_check();

int main() { return mlas_kai_check(); }
