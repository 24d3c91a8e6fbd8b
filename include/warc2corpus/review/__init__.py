"""The allow-list's review for operators: the page Airflow's UI shows under Browse (``review.app``)."""
