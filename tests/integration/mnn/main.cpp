int mnn_kai_check();

int main() { return mnn_kai_check(); }
