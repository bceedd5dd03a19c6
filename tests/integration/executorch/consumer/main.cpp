int executorch_kai_check();

int main() { return executorch_kai_check(); }
